package io.meshcontrol.api;

import java.util.function.Consumer;

/**
 * One server-sent event of {@code GET /api/v1/events}: {@code ready} when the stream opens, {@code change} with a
 * change digest (JSON) for each settled burst of changes. Comment lines (the keep-alive) are not events.
 */
public record ServerEvent(String type, String data) {

    /** Gathers the lines of the stream into events, as the SSE format frames them: fields up to a blank line. */
    static final class Reader {

        private final Consumer<ServerEvent> listener;
        private String type = "message";
        private final StringBuilder data = new StringBuilder();
        private boolean any;

        Reader(Consumer<ServerEvent> listener) {
            this.listener = listener;
        }

        void line(String line) {
            if (line.isEmpty()) {
                if (any) {
                    listener.accept(new ServerEvent(type, data.toString()));
                }
                type = "message";
                data.setLength(0);
                any = false;
            } else if (!line.startsWith(":")) {
                int colon = line.indexOf(':');
                String field = colon < 0 ? line : line.substring(0, colon);
                String value = colon < 0 ? "" : line.substring(colon + 1).replaceFirst("^ ", "");
                switch (field) {
                    case "event" -> {
                        type = value;
                        any = true;
                    }
                    case "data" -> {
                        data.append(data.isEmpty() ? "" : "\n").append(value);
                        any = true;
                    }
                    default -> {
                        // retry, id: nothing the app needs
                    }
                }
            }
        }
    }
}
