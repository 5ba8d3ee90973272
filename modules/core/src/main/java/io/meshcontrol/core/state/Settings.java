package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.TailnetSettings;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.SettingsStore;
import org.jdbi.v3.core.Jdbi;

/** The runtime network settings (device approval, user approval, key duration). */
public final class Settings {

    public static final String WRITE_SCOPE = "feature_settings";
    public static final String READ_SCOPE = "feature_settings:read";

    private final Jdbi jdbi;
    private final Writer writer;
    private final SettingsStore store;
    private final AuditStore audit = new AuditStore();

    Settings(Jdbi jdbi, Writer writer, SettingsStore store) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.store = store;
    }

    public TailnetSettings get(Caller caller) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(store::read);
    }

    /**
     * A change of the settings; a null field keeps its value.
     *
     * @param devicesKeyDurationDays 1 to 180, or 0 for {@code node.expiry}
     */
    public record Change(Boolean devicesApprovalOn, Boolean usersApprovalOn, Integer devicesKeyDurationDays,
            Boolean postureIdentityCollectionOn) {
    }

    /** Applies {@code change} to the settings in force, under the writer: parallel changes of other fields all stay. */
    public TailnetSettings update(Caller caller, Change change) {
        caller.require(WRITE_SCOPE); // before the change is judged: a reader learns nothing from its errors
        Integer days = change.devicesKeyDurationDays();
        if (days != null && (days < 0 || days > 180)) {
            throw MeshException.invalid("devicesKeyDurationDays must be between 1 and 180 (0 = use node.expiry), got "
                    + days);
        }
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            TailnetSettings current = store.read(h);
            TailnetSettings updated = new TailnetSettings(
                    orElse(change.devicesApprovalOn(), current.devicesApprovalOn()),
                    orElse(change.usersApprovalOn(), current.usersApprovalOn()),
                    orElse(days, current.devicesKeyDurationDays()),
                    orElse(change.postureIdentityCollectionOn(), current.postureIdentityCollectionOn()));
            store.write(h, updated);
            audit.append(h, caller.audited(now, "settings.update", "settings", AuditDetails.of()
                    .change("devicesApprovalOn", current.devicesApprovalOn(), updated.devicesApprovalOn())
                    .change("usersApprovalOn", current.usersApprovalOn(), updated.usersApprovalOn())
                    .change("devicesKeyDurationDays", current.devicesKeyDurationDays(),
                            updated.devicesKeyDurationDays())
                    .change("postureIdentityCollectionOn", current.postureIdentityCollectionOn(),
                            updated.postureIdentityCollectionOn()).map()));
            return updated;
        });
    }

    private static <T> T orElse(T value, T current) {
        return value == null ? current : value;
    }
}
