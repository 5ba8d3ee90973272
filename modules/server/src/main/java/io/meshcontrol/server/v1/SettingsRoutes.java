package io.meshcontrol.server.v1;

import io.meshcontrol.api.SettingsView;
import io.meshcontrol.core.state.Settings;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;

/** {@code /api/v1/settings}: the runtime network switches (device approval and friends). */
public final class SettingsRoutes {

    private final Settings settings;

    public SettingsRoutes(Settings settings) {
        this.settings = settings;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/settings", request -> Reply.ok(Views.settings(settings.get(request.caller()))));
        routes.add("PATCH", "/api/v1/settings", request -> {
            SettingsView body = request.requiredBody(SettingsView.class);
            return Reply.ok(Views.settings(settings.update(request.caller(), new Settings.Change(
                    body.devicesApprovalOn(), body.usersApprovalOn(), body.devicesKeyDurationDays(), null))));
        });
    }
}
