package io.meshcontrol.server.console;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.server.http.RawBody;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The browser admin console at {@code /admin}: a page and its ES modules from this package's resources, and the
 * front-end library (htm's standalone build: Preact with hooks and htm in one module) from its jar. Every URL the page
 * uses is relative, so it works behind a reverse proxy that adds a path prefix; the page calls {@code /api/v1} with
 * its session cookie (docs/console.md). Nothing is loaded from elsewhere: the Content-Security-Policy allows this
 * origin only, and no inline script or style.
 */
public final class ConsoleRoutes {

    /** Strict: scripts, styles, images and requests from this origin only; no inline code; no framing. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    private static final String LIBRARY_JAR = "META-INF/resources/_static/htm/";
    private static final Pattern ASSET = Pattern.compile("[a-z][a-z0-9-]*\\.(js|css|svg)");
    private static final Map<String, String> TYPES = Map.of(
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "svg", "image/svg+xml");

    private final byte[] library;

    public ConsoleRoutes() {
        ClassLoader loader = ConsoleRoutes.class.getClassLoader();
        Properties jar = new Properties();
        try {
            jar.load(new ByteArrayInputStream(read(loader, "META-INF/maven/org.mvnpm/htm/pom.properties")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.library = read(loader, LIBRARY_JAR + jar.getProperty("version") + "/preact/standalone.module.js");
    }

    public void register(Routes routes) {
        // The vendor's client sends a waiting machine's owner to <server_url>/admin.
        routes.addPublic("GET", "/admin", request -> new Reply(302, null, headers(Map.of("Location", "admin/"))));
        routes.addPublic("GET", "/admin/", request -> asset("index.html", "text/html; charset=utf-8"));
        routes.addPublic("GET", "/admin/{file}", request -> {
            String file = request.pathParam("file");
            if (!ASSET.matcher(file).matches()) {
                throw MeshException.notFound("no console file " + file);
            }
            return asset(file, TYPES.get(file.substring(file.lastIndexOf('.') + 1)));
        });
        routes.addPublic("GET", "/admin/vendor/preact-htm.js",
                request -> new Reply(200, new RawBody(TYPES.get("js"), library), headers(Map.of())));
    }

    private static Reply asset(String name, String type) {
        try (InputStream in = ConsoleRoutes.class.getResourceAsStream(name)) {
            if (in == null) {
                throw MeshException.notFound("no console file " + name);
            }
            return new Reply(200, new RawBody(type, in.readAllBytes()), headers(Map.of()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every console answer: the policy, no sniffing, no referrer, revalidated (a new version shows at once). */
    private static Map<String, String> headers(Map<String, String> extra) {
        Map<String, String> headers = new HashMap<>(Map.of(
                "Content-Security-Policy", CONTENT_SECURITY_POLICY,
                "X-Content-Type-Options", "nosniff",
                "Referrer-Policy", "no-referrer",
                "Cache-Control", "no-cache"));
        headers.putAll(extra);
        return headers;
    }

    private static byte[] read(ClassLoader loader, String path) {
        // META-INF is not a package: the jar's file is readable through the class loader on either path.
        try (InputStream in = loader.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing " + path + " (is org.mvnpm:htm on the path?)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
