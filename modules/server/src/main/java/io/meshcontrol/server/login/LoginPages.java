package io.meshcontrol.server.login;

import io.meshcontrol.server.http.RawBody;
import io.meshcontrol.server.http.Reply;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** The small HTML pages a person sees at the end of a login: what happened, and what to do next. */
final class LoginPages {

    private LoginPages() {
    }

    static Reply page(int status, String title, String text) {
        return page(status, title, text, Map.of());
    }

    static Reply page(int status, String title, String text, Map<String, String> headers) {
        String html = """
                <!DOCTYPE html>
                <html lang="en">
                  <head><meta charset="UTF-8"><title>Mesh Control: %s</title></head>
                  <body>
                    <h1>%s</h1>
                    <p>%s</p>
                  </body>
                </html>
                """.formatted(escape(title), escape(title), escape(text));
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put("Cache-Control", "no-store");
        return new Reply(status, new RawBody("text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8)), all);
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }
}
