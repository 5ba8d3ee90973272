package io.meshcontrol.server.login;

import io.meshcontrol.server.http.RawBody;
import io.meshcontrol.server.http.Reply;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** The small HTML pages a person sees at the end of a login (branded): what happened, and what to do next. */
final class LoginPages {

    private final Branding branding;

    LoginPages(Branding branding) {
        this.branding = branding;
    }

    Reply page(int status, String title, String text) {
        return page(status, title, text, Map.of());
    }

    Reply page(int status, String title, String text, Map<String, String> headers) {
        String html = branding.page(title, "    <p>" + escape(text) + "</p>");
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put("Cache-Control", "no-store");
        return new Reply(status, new RawBody("text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8)), all);
    }

    static String escape(String text) {
        return Branding.escape(text);
    }
}
