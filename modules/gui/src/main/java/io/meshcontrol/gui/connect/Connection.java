package io.meshcontrol.gui.connect;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.ServerInfo;
import java.util.List;

/**
 * A server the app is connected to: the client for every screen, what the server says of itself, and warnings
 * (another version than the app's).
 */
public record Connection(Profile profile, MeshClient client, ServerInfo server, List<String> warnings) {
}
