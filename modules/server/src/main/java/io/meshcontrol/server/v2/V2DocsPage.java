package io.meshcontrol.server.v2;

import io.meshcontrol.server.http.RawBody;
import io.meshcontrol.server.http.Reply;
import java.nio.charset.StandardCharsets;

/**
 * {@code /api/v2/docs}: the operations this server serves under {@code /api/v2}, made at request time from what
 * {@link V2Routes} registered (so it lists exactly what is served), each with its scope and what it does here.
 * Partial support and unsupported operations are marked.
 */
final class V2DocsPage {

    private final V2Routes v2;
    private final String version;

    V2DocsPage(V2Routes v2, String version) {
        this.v2 = v2;
        this.version = version;
    }

    void register() {
        v2.open("GET", "/docs", request -> Reply.ok(new RawBody("text/html; charset=utf-8",
                html().getBytes(StandardCharsets.UTF_8))))
                .doc("", "This page").answers(200, "text/html", String.class);
    }

    String html() {
        StringBuilder page = new StringBuilder("""
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>Mesh Control /api/v2</title>
                <style>body{font-family:sans-serif;margin:2em}td,th{padding:.3em .6em;text-align:left;
                vertical-align:top;border-bottom:1px solid #ddd}code{white-space:nowrap}.partial{background:#fff6d6}
                .unsupported{background:#f3f3f3;color:#666}</style></head><body>
                <h1>The vendor-compatible API, <code>/api/v2</code></h1>
                <p>Server version %s. The vendor's clients (its Go client, the Terraform provider, the Kubernetes
                operator) work against these operations. Authenticate with an API key as the HTTP Basic user name
                (empty password) or as <code>Bearer</code>. The network segment <code>{tailnet}</code> is
                <code>-</code> or this network's ID; anything else is 404. Errors are
                <code>{"message": "..."}</code>. Rows marked <em>Partial</em> work as described; <em>Unsupported</em>
                rows answer 404. Any other path answers 404. The same operations, with the schemas of their
                bodies, are described for programs at <a href="openapi.json"><code>/api/v2/openapi.json</code></a>
                (OpenAPI 3.1).</p>
                <table><tr><th>Method</th><th>Path</th><th>Scope</th><th>What it does here</th></tr>
                """.formatted(escape(version)));
        for (V2Routes.Operation op : v2.operations()) {
            String kind = op.summary().startsWith("Partial") ? " class=\"partial\""
                    : op.summary().startsWith("Unsupported") ? " class=\"unsupported\"" : "";
            page.append("<tr").append(kind).append("><td>").append(op.method()).append("</td><td><code>")
                    .append(escape(op.path())).append("</code></td><td><code>").append(escape(op.scope()))
                    .append("</code></td><td>").append(escape(op.summary())).append("</td></tr>\n");
        }
        return page.append("</table></body></html>\n").toString();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
