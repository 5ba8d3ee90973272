package io.meshcontrol.relay.map;

import io.meshcontrol.core.model.DerpSettings;
import java.nio.charset.StandardCharsets;

/**
 * The map a URL answered: the layer it contributes, and the JSON it was read from, which the server stores so that
 * other instances and later starts use the same map without fetching it.
 */
public record UrlMap(MapLayer layer, String json) {

    /**
     * The map of {@code url} from JSON stored earlier.
     *
     * @throws MapSourceException when it no longer reads (a stored copy from an older version)
     */
    public static UrlMap read(String url, String json) {
        return new UrlMap(DerpMapFile.readJson(DerpSettings.redactedUrl(url), json.getBytes(StandardCharsets.UTF_8)),
                json);
    }
}
