package io.meshcontrol.core.state;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.GoDuration;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.crypto.Sha256;
import io.meshcontrol.core.model.DerpSettings;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.DerpSettingsStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The DERP settings saved at runtime: changed or forgotten, each change with its audit entry in the same transaction,
 * under the writer. Putting them into force (the relay, the map) is the server's; it saves only what it has checked it
 * can apply.
 */
public final class SavedDerpSettings {

    public static final String WRITE_SCOPE = "networking_settings";
    public static final String READ_SCOPE = "networking_settings:read";

    private final Jdbi jdbi;
    private final Writer writer;
    private final DerpSettingsStore store;
    private final AuditStore audit;
    private volatile Runnable savedElsewhere = () -> { };

    SavedDerpSettings(Jdbi jdbi, Writer writer, DerpSettingsStore store, AuditStore audit) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.store = store;
        this.audit = audit;
    }

    /**
     * Set once by the server's relay configuration: called when another instance saved or forgot the settings
     * ({@link ChangeFollower}, under the writer lock: it must only hand the work on), so this instance puts them in
     * force too.
     */
    public void onSavedElsewhere(Runnable listener) {
        this.savedElsewhere = listener;
    }

    void followSaved() {
        savedElsewhere.run();
    }

    /** The saved settings; empty while the configuration file's are in force. */
    public Optional<DerpSettings> read() {
        return jdbi.withHandle(store::read);
    }

    /**
     * Changes the settings: {@code change} is given the settings in force (the saved ones, else {@code configured}),
     * with every change saved before it, and answers the new ones, saved with a {@code derp.update} entry. Settings
     * that cannot work are refused, and a change that throws (a failed precondition) writes nothing.
     *
     * @param configured the configuration file's settings, in force while none are saved
     * @param ifMatch the ETag the caller read, {@code *} for any, or null to change unconditionally
     * @param embeddedRegionId the embedded relay's region id, which a custom relay may not take
     * @return the settings saved
     */
    public DerpSettings update(Caller caller, DerpSettings configured, String ifMatch,
            UnaryOperator<DerpSettings> change, int embeddedRegionId) {
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            DerpSettings settings = change.apply(inForce(h, configured, ifMatch));
            settings.validated(embeddedRegionId);
            store.write(h, settings, now, caller.actor());
            writer.logChange(h, ChangeLog.Kind.DERP);
            audit.append(h, caller.audited(now, "derp.update", "derp", auditDetails(settings)));
            return settings;
        });
    }

    /**
     * Forgets the saved settings, with a {@code derp.reset} entry.
     *
     * @param configured the configuration file's settings, in force again afterwards (the audit entry shows them)
     * @param ifMatch the ETag the caller read, {@code *} for any, or null to reset unconditionally
     */
    public void forget(Caller caller, DerpSettings configured, String ifMatch) {
        writer.write(caller, WRITE_SCOPE, (h, now) -> {
            inForce(h, configured, ifMatch);
            store.delete(h);
            writer.logChange(h, ChangeLog.Kind.DERP);
            audit.append(h, caller.audited(now, "derp.reset", "derp", auditDetails(configured)));
        });
    }

    /** The settings in force, read under the writer; refused when they are not the ones {@code ifMatch} names. */
    private DerpSettings inForce(Handle h, DerpSettings configured, String ifMatch) {
        DerpSettings settings = store.read(h).orElse(configured);
        if (ifMatch != null && !ifMatch.trim().equals("*") && !ifMatch.trim().equals(etag(settings))) {
            throw new MeshException(MeshException.Reason.PRECONDITION_FAILED,
                    "the DERP settings changed since they were read (ETag " + etag(settings)
                            + "); read them again and retry");
        }
        return settings;
    }

    /**
     * The settings as {@code caller} may see them: map URLs with their user info, query and fragment, which may hold
     * credentials, never read back, each shown as {@link DerpSettings#HIDDEN}; a writer that sends such a URL back
     * keeps the hidden part ({@link DerpSettings#withHiddenPartsFrom}).
     */
    public static DerpSettings shownTo(Caller caller, DerpSettings settings) {
        caller.require(READ_SCOPE);
        return settings.withHiddenUrlParts();
    }

    /** A tag that changes whenever the settings do: a hash of their saved form, quoted as HTTP writes an ETag. */
    public static String etag(DerpSettings settings) {
        return "\"" + Sha256.hex(DerpSettingsStore.document(settings), 16) + "\"";
    }

    /** What the audit log keeps of a change: every setting, map URLs without user info and query strings. */
    private static Map<String, String> auditDetails(DerpSettings s) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put("urls", s.urls().stream().map(DerpSettings::redactedUrl).collect(Collectors.joining(" ")));
        details.put("autoUpdate", Boolean.toString(s.autoUpdate()));
        details.put("updateFrequency", GoDuration.format(s.updateFrequency()));
        details.put("relayEnabled", Boolean.toString(s.relayEnabled()));
        details.put("verifyClients", Boolean.toString(s.verifyClients()));
        details.put("stunEnabled", Boolean.toString(s.stunEnabled()));
        details.put("stunListenAddr", String.valueOf(s.stunListenAddr()));
        details.put("ipv4", s.ipv4() == null ? "" : s.ipv4());
        details.put("ipv6", s.ipv6() == null ? "" : s.ipv6());
        details.put("relays", s.relays().stream()
                .map(r -> r.regionId() + " " + r.code() + " " + r.host() + (r.ipv4() == null ? "" : " " + r.ipv4()))
                .collect(Collectors.joining(", ")));
        return details;
    }
}
