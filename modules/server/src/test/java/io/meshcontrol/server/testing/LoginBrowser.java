package io.meshcontrol.server.testing;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A person's browser, headless: follows redirects itself (so a test sees each hop), keeps cookies, and fills in the
 * login form of the {@link OidcIssuerFixture#startWithLoginForm() test issuer}.
 *
 * <pre>{@code
 * LoginBrowser browser = new LoginBrowser();
 * LoginBrowser.Page done = browser.logIn(authUrl, "freya", Map.of("email", "freya@example.com"));
 * }</pre>
 */
public final class LoginBrowser {

    private static final int MAX_REDIRECTS = 10;

    /** Where a navigation ended: its URL, status and body, and every URL on the way. */
    public record Page(URI uri, int status, String body, List<URI> hops, HttpResponse<String> response) {
    }

    /** A cookie as a browser keeps it (RFC 6265: any path may be set; java.net.CookieManager refuses some). */
    private record Cookie(String host, String name, String value, String path) {
    }

    private final List<Cookie> cookies = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    /** Opens {@code url} and follows its redirects. */
    public Page open(URI url) {
        return follow(HttpRequest.newBuilder(url).GET().build(), new ArrayList<>());
    }

    /**
     * Opens {@code start} (an AuthURL, {@code /login}), which must lead to the issuer's login form, submits it as
     * {@code username} (the ID token's {@code sub}) with {@code claims} added to the token, and follows the
     * redirects back to the server: the page the server answered its callback with.
     */
    public Page logIn(URI start, String username, Map<String, Object> claims) {
        Page form = open(start);
        if (form.status() != 200 || !form.body().contains("name=\"username\"")) {
            throw new AssertionError("no issuer login form at the end of " + form.hops() + ": HTTP " + form.status()
                    + "\n" + form.body());
        }
        String body = "username=" + encode(username) + "&claims=" + encode(json(claims));
        List<URI> hops = new ArrayList<>(form.hops());
        return follow(HttpRequest.newBuilder(form.uri()).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), hops);
    }

    /** A request made with this browser's cookies (a page's script calling the API with its session). */
    public HttpResponse<String> send(HttpRequest request) {
        URI uri = request.uri();
        List<String> sent = cookies.stream().filter(c -> c.host().equals(uri.getAuthority())
                && (uri.getPath() + "/").startsWith(c.path().endsWith("/") ? c.path() : c.path() + "/"))
                .map(c -> c.name() + "=" + c.value()).toList();
        HttpRequest withCookies = sent.isEmpty() ? request
                : HttpRequest.newBuilder(request, (name, value) -> true).header("Cookie", String.join("; ", sent)).build();
        try {
            HttpResponse<String> response = http.send(withCookies, HttpResponse.BodyHandlers.ofString());
            response.headers().allValues("Set-Cookie").forEach(header -> keep(uri, header));
            return response;
        } catch (IOException e) {
            throw new AssertionError("request to " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The names of the cookies this browser holds now (expired ones are gone). */
    public List<String> cookieNames() {
        return cookies.stream().map(Cookie::name).toList();
    }

    private void keep(URI uri, String header) {
        String[] parts = header.split(";");
        int eq = parts[0].indexOf('=');
        String name = parts[0].substring(0, eq).strip();
        String value = parts[0].substring(eq + 1).strip();
        String path = "/";
        boolean expired = false;
        for (int i = 1; i < parts.length; i++) {
            String attribute = parts[i].strip();
            if (attribute.regionMatches(true, 0, "Path=", 0, 5)) {
                path = attribute.substring(5);
            } else if (attribute.equalsIgnoreCase("Max-Age=0")) {
                expired = true;
            }
        }
        String keptPath = path;
        cookies.removeIf(c -> c.host().equals(uri.getAuthority()) && c.name().equals(name) && c.path().equals(keptPath));
        if (!expired) {
            cookies.add(new Cookie(uri.getAuthority(), name, value, path));
        }
    }

    private Page follow(HttpRequest first, List<URI> hops) {
        HttpRequest request = first;
        for (int i = 0; i <= MAX_REDIRECTS; i++) {
            hops.add(request.uri());
            HttpResponse<String> response = send(request);
            int status = response.statusCode();
            if (status < 300 || status >= 400) {
                return new Page(request.uri(), status, response.body(), List.copyOf(hops), response);
            }
            URI next = request.uri().resolve(response.headers().firstValue("Location").orElseThrow(() ->
                    new AssertionError("redirect without Location from " + response.uri())));
            request = HttpRequest.newBuilder(next).GET().build();
        }
        throw new AssertionError("more than " + MAX_REDIRECTS + " redirects: " + hops);
    }

    /** Claims as the issuer's form takes them: a JSON object of strings, booleans and lists of strings. */
    private static String json(Map<String, Object> claims) {
        StringBuilder text = new StringBuilder("{");
        claims.forEach((name, value) -> text.append(text.length() > 1 ? "," : "").append(quote(name)).append(':')
                .append(value instanceof List<?> list
                        ? "[" + String.join(",", list.stream().map(v -> quote(v.toString())).toList()) + "]"
                        : value instanceof Boolean b ? b.toString() : quote(value.toString())));
        return text.append('}').toString();
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
