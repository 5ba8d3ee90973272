package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.Limits;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.DerpSettings;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every size limit of docs/limits.md, through the state services that every caller (v1, v2, the CLI) goes through:
 * the limit itself is accepted, one more is refused naming the field and the limit, and nothing is written.
 */
class SizeLimitsTest {

    private static final int EMBEDDED_REGION = 999;

    @TempDir
    Path folder;
    TestNetwork net;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
    }

    private static String text(int length) {
        return "a".repeat(length);
    }

    private static void refused(String detail, Executable change) {
        MeshException refusal = assertThrows(MeshException.class, change);
        assertEquals(MeshException.Reason.INVALID, refusal.reason());
        assertEquals(detail, refusal.getMessage());
    }

    @Test
    void aDisplayNameHasAtMost255Characters() {
        User odin = net.network.users().create(net.admin, new Users.NewUser("odin", text(255), null, Role.MEMBER));
        assertEquals(255, odin.displayName().length());
        refused("displayName is too long: at most 255 characters, got 4,194,304", () -> net.network.users()
                .create(net.admin, new Users.NewUser("thor", text(4 * 1024 * 1024), null, Role.MEMBER)));
        refused("displayName is too long: at most 255 characters, got 256", () -> net.network.users()
                .update(net.admin, odin.id(), new Users.UserChange(null, text(256), null, null)));
        assertEquals(text(255), net.network.users().byId(odin.id()).orElseThrow().displayName());
        assertTrue(net.network.users().byName("thor").isEmpty());
    }

    @Test
    void anEmailHasAtMost254Characters() {
        String longest = text(254 - "@example.com".length()) + "@example.com";
        User odin = net.network.users().create(net.admin, new Users.NewUser("odin", null, longest, Role.MEMBER));
        assertEquals(longest, odin.email());
        refused("email is too long: at most 254 characters, got 255", () -> net.network.users()
                .update(net.admin, odin.id(), new Users.UserChange(null, null, "a" + longest, null)));
    }

    @Test
    void aUserNameOrNodeNameTooLongIsRefusedWithoutEchoingIt() {
        refused("name is too long: at most 63 characters, got 1,000,000", () -> net.network.users()
                .create(net.admin, new Users.NewUser(text(1_000_000), null, null, Role.MEMBER)));
        net.user("odin", Role.MEMBER);
        Node node = net.join(Machine.named("laptop"), net.authKey(AuthKey.forUser("odin")));
        refused("name is too long: at most 63 characters, got 64",
                () -> net.network.nodes().rename(net.admin, node.id(), text(64)));
        assertEquals(text(63), net.network.nodes().rename(net.admin, node.id(), text(63)).givenName());
    }

    @Test
    void keyDescriptionsHaveAtMost1000Characters() {
        net.user("odin", Role.MEMBER);
        assertEquals(1_000, net.network.apiKeys().create(net.admin, null, null, text(1_000), null)
                .key().description().length());
        refused("description is too long: at most 1,000 characters, got 1,001",
                () -> net.network.apiKeys().create(net.admin, null, null, text(1_001), null));
        PreAuthKeys keys = net.network.preAuthKeys();
        assertEquals(1_000, keys.create(net.admin, newKey(List.of(), text(1_000))).key().description().length());
        refused("description is too long: at most 1,000 characters, got 1,001",
                () -> keys.create(net.admin, newKey(List.of(), text(1_001))));
        assertEquals(1, net.network.apiKeys().list(net.admin).size());
        assertEquals(1, keys.list(net.admin).size());
    }

    @Test
    void aKeyAsksForAtMost100Scopes() {
        List<String> scopes = Collections.nCopies(101, "users:read");
        refused("scopes has too many entries: at most 100, got 101",
                () -> net.network.apiKeys().create(net.admin, null, scopes, "", null));
        assertEquals(List.of("users:read"), net.network.apiKeys().create(net.admin, null, scopes.subList(0, 100), "",
                null).key().scopes());
    }

    @Test
    void aNodeOrKeyHasAtMost256TagsOfAtMost255Characters() {
        List<String> tags = IntStream.range(0, 257).mapToObj(i -> "tag:t" + i).toList();
        net.policy("{\"tagOwners\": {" + String.join(", ", tags.stream().map(t -> "\"" + t + "\": []").toList())
                + "}, \"acls\": []}");
        net.user("odin", Role.MEMBER);
        PreAuthKeys keys = net.network.preAuthKeys();
        refused("tags has too many entries: at most 256, got 257", () -> keys.create(net.admin, newKey(tags, "")));
        assertEquals(256, keys.create(net.admin, newKey(tags.subList(0, 256), "")).key().tags().size());
        refused("tags[1] is too long: at most 255 characters, got 256",
                () -> keys.create(net.admin, newKey(List.of("tag:a", "tag:" + text(252)), "")));

        Node node = net.join(Machine.named("laptop"), net.authKey(AuthKey.forUser("odin")));
        refused("tags has too many entries: at most 256, got 257",
                () -> net.network.nodes().setTags(net.admin, node.id(), tags));
        assertEquals(256, net.network.nodes().setTags(net.admin, node.id(), tags.subList(1, 257)).tags().size());
    }

    @Test
    void aNodeHasAtMost1000ApprovedRoutes() {
        net.user("odin", Role.MEMBER);
        Node node = net.join(Machine.named("router"), net.authKey(AuthKey.forUser("odin")));
        List<String> routes = IntStream.range(0, 1_001).mapToObj(i -> "10." + i / 256 + "." + i % 256 + ".0/24")
                .toList();
        refused("routes has too many entries: at most 1,000, got 1,001",
                () -> net.network.routeApprovals().setApproved(net.admin, node.id(), routes));
        assertEquals(0, net.network.routeApprovals().get(net.admin, node.id()).approvedRoutes().size());
        assertEquals(1_000, net.network.routeApprovals().setApproved(net.admin, node.id(), routes.subList(0, 1_000))
                .approvedRoutes().size());
    }

    @Test
    void aPolicyHasAtMostOneMebibyte() {
        String policy = "{\"acls\": []}\n";
        String largest = policy + "//" + text(Limits.POLICY_BYTES - policy.length() - 2);
        assertEquals(Limits.POLICY_BYTES, net.network.policies().set(net.admin, largest, null).policy().text().length());
        refused("policy is too large: at most 1,048,576 bytes, got 1,048,577",
                () -> net.network.policies().set(net.admin, largest + "a", null));
        refused("policy is too large: at most 1,048,576 bytes, got 1,048,579",
                () -> net.network.policies().check(net.admin, largest.substring(1) + "éé"));
    }

    @Test
    void derpSettingsHaveAtMost100UrlsOf2048CharactersAnd1000Relays() {
        SavedDerpSettings saved = net.network.savedDerpSettings();
        String longestUrl = "https://maps.example/" + text(2_048 - "https://maps.example/".length());
        List<String> urls = Collections.nCopies(100, longestUrl);
        save(saved, derp(urls, List.of()));
        refused("urls has too many entries: at most 100, got 101",
                () -> save(saved, derp(Collections.nCopies(101, "https://maps.example/"), List.of())));
        refused("urls[0] is too long: at most 2,048 characters, got 2,049",
                () -> save(saved, derp(List.of(longestUrl + "a"), List.of())));

        List<DerpSettings.CustomRelay> relays = new ArrayList<>();
        for (int region = 1; relays.size() < 1_001; region++) {
            if (region != EMBEDDED_REGION) {
                relays.add(new DerpSettings.CustomRelay(region, "r" + region, "relay" + region + ".example", null));
            }
        }
        refused("relays has too many entries: at most 1,000, got 1,001",
                () -> save(saved, derp(List.of(), relays)));
        save(saved, derp(List.of(), relays.subList(0, 1_000)));
        refused("the region code of relay 900 is too long: at most 63 characters, got 64", () -> save(saved,
                derp(List.of(), List.of(new DerpSettings.CustomRelay(900, text(64), "relay.example", null)))));
        assertEquals(1_000, saved.read().orElseThrow().relays().size(), "the refused settings changed nothing");
    }

    private void save(SavedDerpSettings saved, DerpSettings settings) {
        saved.update(net.admin, settings, null, inForce -> settings, EMBEDDED_REGION);
    }

    private static DerpSettings derp(List<String> urls, List<DerpSettings.CustomRelay> relays) {
        return new DerpSettings(urls, false, Duration.ofHours(24), true, null, null, true, true, "127.0.0.1:0",
                relays);
    }

    private static PreAuthKeys.NewKey newKey(List<String> tags, String description) {
        return new PreAuthKeys.NewKey(tags.isEmpty() ? "odin" : null, tags, false, false, false, description, null);
    }
}
