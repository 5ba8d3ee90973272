package io.meshcontrol.server.login;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code branding.*}: the product name and logo on the pages people see (the machine registration page, the OIDC
 * login pages). The logo is read once at start and embedded in the pages as a {@code data:} URL, so it needs no route
 * of its own and reaches a browser that cannot reach anything else of the server.
 *
 * @param title the product name ({@code branding.title})
 * @param logoDataUrl the logo as a {@code data:} URL, or null for none
 */
public record Branding(String title, String logoDataUrl) {

    /** The largest logo accepted: it travels inside every page. */
    public static final int MAX_LOGO_BYTES = 256 * 1024;
    private static final Map<String, String> TYPES = Map.of("png", "image/png", "svg", "image/svg+xml",
            "jpg", "image/jpeg", "jpeg", "image/jpeg", "gif", "image/gif", "webp", "image/webp");

    public static final Branding DEFAULT = new Branding("Mesh Control", null);

    /**
     * The branding of the settings, the logo read now.
     *
     * @throws IllegalArgumentException naming the file and the problem: unreadable, too large, or not an image type
     *                                  pages can show (png, svg, jpg, gif, webp)
     */
    public static Branding of(String title, Optional<Path> logo) {
        if (logo.isEmpty()) {
            return new Branding(title, null);
        }
        Path file = logo.get();
        String name = file.getFileName().toString();
        String type = TYPES.get(name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT));
        if (type == null) {
            throw new IllegalArgumentException("branding.logo_path: " + file + " must be a .png, .svg, .jpg, .gif or "
                    + ".webp image");
        }
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_LOGO_BYTES) {
                throw new IllegalArgumentException("branding.logo_path: " + file + " is larger than 256 KiB");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("branding.logo_path: cannot read " + file + ": " + e.getMessage(), e);
        }
        return new Branding(title, "data:" + type + ";base64," + Base64.getEncoder().encodeToString(bytes));
    }

    /** A whole page: the title, then the logo and the product name above {@code heading}, then {@code body} (HTML). */
    public String page(String heading, String body) {
        String logo = logoDataUrl == null ? "" : "<img src=\"" + logoDataUrl + "\" alt=\"\" height=\"48\"> ";
        return """
                <!DOCTYPE html>
                <html lang="en">
                  <head><meta charset="UTF-8"><title>%s: %s</title></head>
                  <body>
                    <p class="brand">%s<strong>%s</strong></p>
                    <h1>%s</h1>
                %s
                  </body>
                </html>
                """.formatted(escape(title), escape(heading), logo, escape(title), escape(heading), body);
    }

    /**
     * A page in the console's style ({@code stylesheet}: the address of console.css relative to the page's): the
     * product name and logo, then {@code heading} and {@code body} (HTML) in a sign-in sized box.
     */
    public String styledPage(String heading, String stylesheet, String body) {
        String logo = logoDataUrl == null ? "" : "<img src=\"" + logoDataUrl + "\" alt=\"\" height=\"24\"> ";
        return """
                <!DOCTYPE html>
                <html lang="en">
                  <head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1">
                    <title>%s: %s</title><link rel="stylesheet" href="%s"></head>
                  <body>
                    <main id="main" class="signin">
                    <p class="brand">%s<strong>%s</strong></p>
                    <h1>%s</h1>
                %s
                    </main>
                  </body>
                </html>
                """.formatted(escape(title), escape(heading), escape(stylesheet), logo, escape(title), escape(heading),
                body);
    }

    public static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }
}
