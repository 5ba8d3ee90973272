package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.TailnetSettings;
import io.meshcontrol.core.store.SettingsStore;
import org.jdbi.v3.core.Jdbi;

/** The runtime network settings (device approval, user approval, key duration). */
public final class Settings {

    public static final String WRITE_SCOPE = "feature_settings";
    public static final String READ_SCOPE = "feature_settings:read";

    private final Jdbi jdbi;
    private final SettingsStore store;

    Settings(Jdbi jdbi, SettingsStore store) {
        this.jdbi = jdbi;
        this.store = store;
    }

    public TailnetSettings get(Caller caller) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(store::read);
    }

    /** Null fields keep their value. */
    public TailnetSettings update(Caller caller, Boolean devicesApprovalOn, Boolean usersApprovalOn, Integer keyDurationDays) {
        caller.require(WRITE_SCOPE);
        if (keyDurationDays != null && (keyDurationDays < 0 || keyDurationDays > 180)) {
            throw MeshException.invalid("devicesKeyDurationDays must be between 1 and 180 (0 = use node.expiry), got "
                    + keyDurationDays);
        }
        return jdbi.inTransaction(h -> {
            TailnetSettings current = store.read(h);
            TailnetSettings updated = new TailnetSettings(
                    devicesApprovalOn == null ? current.devicesApprovalOn() : devicesApprovalOn,
                    usersApprovalOn == null ? current.usersApprovalOn() : usersApprovalOn,
                    keyDurationDays == null ? current.devicesKeyDurationDays() : keyDurationDays);
            store.write(h, updated);
            return updated;
        });
    }
}
