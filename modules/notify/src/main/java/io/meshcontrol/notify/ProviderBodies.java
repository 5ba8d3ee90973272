package io.meshcontrol.notify;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The request an HTTP endpoint gets for a delivery: the signed JSON array as stored for a plain endpoint, the bare
 * message in the chat provider's shape otherwise. A delivery that carries several events gives a chat provider one
 * post with their messages on separate lines.
 */
final class ProviderBodies {

    /** @param url where to post: the endpoint's URL, except for telegram, whose {@code chat_id} moves to the body */
    record Request(String url, String contentType, byte[] body, Map<String, String> headers) {
    }

    private ProviderBodies() {
    }

    static Request of(String provider, String url, String events, Tailnet tailnet) {
        return switch (provider) {
            case "" -> new Request(url, "application/json", events.getBytes(StandardCharsets.UTF_8), Map.of());
            case "slack", "mattermost", "googlechat", "teams" -> json(url, object().put("text", messages(events)));
            case "discord" -> json(url, object().put("content", messages(events)));
            case "telegram" -> telegram(url, messages(events));
            case "ntfy" -> new Request(url, "text/plain; charset=utf-8",
                    messages(events).getBytes(StandardCharsets.UTF_8), Map.of("Title", tailnet.name()));
            default -> throw new IllegalArgumentException("no HTTP body for provider " + provider);
        };
    }

    /** The URL without {@code chat_id} in its query, and {@code {"chat_id","text"}} as the body. */
    private static Request telegram(String url, String text) {
        URI uri = URI.create(url);
        String chatId = "";
        List<String> kept = new ArrayList<>();
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
                if (pair.startsWith("chat_id=")) {
                    chatId = URLDecoder.decode(pair.substring("chat_id=".length()), StandardCharsets.UTF_8);
                } else if (!pair.isEmpty()) {
                    kept.add(pair);
                }
            }
        }
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        String target = kept.isEmpty() ? base : base + "?" + String.join("&", kept);
        return json(target, object().put("chat_id", chatId).put("text", text));
    }

    private static Request json(String url, ObjectNode body) {
        return new Request(url, "application/json", EventObjects.JSON.writeValueAsBytes(body), Map.of());
    }

    private static ObjectNode object() {
        return EventObjects.JSON.createObjectNode();
    }

    /** The events' messages, one per line. */
    static String messages(String events) {
        List<String> lines = new ArrayList<>();
        for (JsonNode event : EventObjects.JSON.readTree(events)) {
            lines.add(event.path("message").asString(""));
        }
        return String.join("\n", lines);
    }
}
