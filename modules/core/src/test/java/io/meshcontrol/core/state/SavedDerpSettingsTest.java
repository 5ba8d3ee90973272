package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.DerpSettings;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SavedDerpSettingsTest {

    private static final int EMBEDDED_REGION = 999;

    @TempDir
    Path folder;
    TestNetwork net;
    SavedDerpSettings saved;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        saved = net.network.savedDerpSettings();
    }

    private static DerpSettings settings(String mapUrl, List<DerpSettings.CustomRelay> relays) {
        return new DerpSettings(List.of(mapUrl), false, Duration.ofHours(24), true, null, null, true, true,
                "127.0.0.1:0", relays);
    }

    /** Saves {@code settings} whatever is in force. */
    private void save(Caller caller, DerpSettings settings) {
        saved.update(caller, settings, null, inForce -> settings, EMBEDDED_REGION);
    }

    private static final DerpSettings HOME = settings("https://reader:secret@maps.example/derp.json?token=abc",
            List.of(new DerpSettings.CustomRelay(900, "home", "relay.example.com", null)));

    @Test
    void nobodyReadsMapUrlCredentialsAndAWriterSendingBackWhatItReadKeepsThem() {
        net.user("audrey", Role.AUDITOR);
        for (Caller caller : List.of(net.callerFor("audrey", List.of()), net.callerFor(null, List.of("all:read")),
                net.callerFor(null, List.of("networking_settings:read")),
                net.callerFor(null, List.of("networking_settings")), net.admin)) {
            DerpSettings shown = SavedDerpSettings.shownTo(caller, HOME);
            assertEquals(List.of("https://svc-hidden@maps.example/derp.json?svc-hidden"), shown.urls());
            assertEquals(HOME.relays(), shown.relays(), "only the URLs are cut");
            assertEquals(HOME, shown.withHiddenPartsFrom(HOME.urls()), "the round trip keeps the secret parts");
        }
        MeshException refused = assertThrows(MeshException.class,
                () -> SavedDerpSettings.shownTo(net.callerFor(null, List.of("dns")), HOME));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
    }

    @Test
    void savedSettingsReadBackWithAnAuditEntryWithoutMapUrlCredentials() {
        save(net.admin, HOME);

        assertEquals(HOME, saved.read().orElseThrow());
        List<AuditEntry> entries = net.network.auditLog().recent("derp.update", 10);
        assertEquals(1, entries.size());
        AuditEntry entry = entries.getFirst();
        assertEquals("local-admin", entry.actor());
        assertEquals(net.clock.instant(), entry.at());
        assertEquals("https://maps.example/derp.json", entry.details().get("urls"));
        assertEquals("900 home relay.example.com", entry.details().get("relays"));
    }

    @Test
    void forgettingPutsTheConfigurationBackAndIsAudited() {
        DerpSettings configured = settings("https://maps.example/configured.json", List.of());
        save(net.admin, HOME);
        saved.forget(net.admin, configured, null);

        assertTrue(saved.read().isEmpty(), "nothing saved: the configuration file's settings apply");
        AuditEntry reset = net.network.auditLog().recent("derp.reset", 10).getFirst();
        assertEquals("https://maps.example/configured.json", reset.details().get("urls"));
    }

    @Test
    void invalidSettingsAreRefusedAndNothingIsWritten() {
        DerpSettings takesTheEmbeddedRegion = settings("https://maps.example/derp.json",
                List.of(new DerpSettings.CustomRelay(EMBEDDED_REGION, "home", "relay.example.com", null)));

        MeshException refused = assertThrows(MeshException.class,
                () -> save(net.admin, takesTheEmbeddedRegion));

        assertEquals(MeshException.Reason.INVALID, refused.reason());
        assertTrue(saved.read().isEmpty());
        assertTrue(net.network.auditLog().recent(null, 10).isEmpty());
    }

    @Test
    void aCallerWithoutTheNetworkingScopeWritesNothing() {
        Caller readOnly = net.callerFor(null, List.of(SavedDerpSettings.READ_SCOPE));
        assertEquals(MeshException.Reason.FORBIDDEN,
                assertThrows(MeshException.class, () -> save(readOnly, HOME)).reason());
        assertEquals(MeshException.Reason.FORBIDDEN,
                assertThrows(MeshException.class, () -> saved.forget(readOnly, HOME, null)).reason());
        assertTrue(saved.read().isEmpty());
        assertTrue(net.network.auditLog().recent("derp.update", 10).isEmpty());
    }

    @Test
    void theEtagFollowsTheSettings() {
        DerpSettings other = settings("https://maps.example/other.json", List.of());
        assertEquals(SavedDerpSettings.etag(HOME), SavedDerpSettings.etag(settings(HOME.urls().getFirst(),
                HOME.relays())));
        assertNotEquals(SavedDerpSettings.etag(HOME), SavedDerpSettings.etag(other));
        assertTrue(SavedDerpSettings.etag(HOME).matches("\"[0-9a-f]{32}\""));
    }
}
