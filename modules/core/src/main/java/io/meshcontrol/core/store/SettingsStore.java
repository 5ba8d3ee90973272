package io.meshcontrol.core.store;

import io.meshcontrol.core.model.TailnetSettings;
import org.jdbi.v3.core.Handle;

/** The single row of runtime network settings. */
public final class SettingsStore {

    public TailnetSettings read(Handle handle) {
        return handle.createQuery("SELECT devices_approval_on, users_approval_on, devices_key_duration_days, "
                        + "posture_identity_collection_on "
                        + "FROM tailnet_settings WHERE singleton = 1")
                .map((rs, ctx) -> new TailnetSettings(rs.getBoolean(1), rs.getBoolean(2), rs.getInt(3),
                        rs.getBoolean(4)))
                .one();
    }

    public void write(Handle handle, TailnetSettings settings) {
        handle.createUpdate("UPDATE tailnet_settings SET devices_approval_on = :approval, users_approval_on = :users, "
                        + "devices_key_duration_days = :days, posture_identity_collection_on = :posture WHERE singleton = 1")
                .bind("approval", settings.devicesApprovalOn())
                .bind("users", settings.usersApprovalOn())
                .bind("days", settings.devicesKeyDurationDays())
                .bind("posture", settings.postureIdentityCollectionOn())
                .execute();
    }
}
