package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc oauth-clients}: both kinds through the real CLI against a running server. */
class OAuthClientsCliTest {

    @TempDir
    Path folder;
    @RegisterExtension
    final ServerWithCli cli = ServerWithCli.in(() -> folder);

    @Test
    void createListUpdateAndDeleteBothKinds() {
        cli.server().adminClient().setPolicy("{\"tagOwners\": {\"tag:ci\": []}}");
        CliRun client = cli.run("oauth-clients", "create", "--scope", "auth_keys", "--tag", "tag:ci",
                "--description", "ci");
        assertEquals(0, client.exitCode(), client.toString());
        String secret = client.firstLine();
        assertTrue(secret.startsWith("svckey-client-"), client.toString());
        assertTrue(client.err().contains("not shown again"), client.err());
        String clientId = secret.split("-")[2];

        CliRun identity = cli.run("oauth-clients", "create", "--federated", "--scope", "auth_keys", "--tag", "tag:ci",
                "--issuer", "https://token.actions.example", "--audience", "mesh", "--subject", "repo:acme/*",
                "--claim", "ref=refs/heads/main");
        assertEquals(0, identity.exitCode(), identity.toString());
        assertTrue(identity.err().contains("trusts repo:acme/* from https://token.actions.example"), identity.err());

        CliRun listed = cli.run("oauth-clients", "list");
        assertEquals(0, listed.exitCode(), listed.toString());
        assertTrue(listed.out().contains(clientId) && listed.out().contains("client"), listed.out());
        assertTrue(listed.out().contains("repo:acme/* from https://token.actions.example, ref=refs/heads/main"),
                listed.out());
        assertFalse(listed.out().contains(secret.substring(secret.lastIndexOf('-') + 1)), "secrets never listed");

        String identityId = listed.out().lines().filter(l -> l.contains("federated")).findFirst().orElseThrow()
                .split(" +")[0];
        CliRun updated = cli.run("oauth-clients", "update", "--id", identityId, "--subject", "repo:acme/app");
        assertEquals(0, updated.exitCode(), updated.toString());
        assertTrue(updated.out().contains("repo:acme/app from https://token.actions.example, ref=refs/heads/main"),
                updated.out());

        CliRun refused = cli.run("oauth-clients", "update", "--id", clientId, "--subject", "x");
        assertEquals(1, refused.exitCode());
        assertTrue(refused.err().contains("trust conditions [subject] are only for federated identities"), refused.err());
        assertEquals(1, refused.err().lines().count(), "one readable line");

        assertEquals(0, cli.run("oauth-clients", "delete", "--id", clientId).exitCode());
        assertTrue(cli.run("oauth-clients", "list").out().lines().anyMatch(l -> l.startsWith(clientId) && l.contains("revoked")));
    }

    @Test
    void badClaimIsOneLine() {
        CliRun refused = cli.run("oauth-clients", "create", "--federated", "--scope", "dns", "--issuer",
                "https://i.example", "--subject", "x", "--claim", "novalue");
        assertEquals(1, refused.exitCode());
        assertEquals("svc: --claim takes name=value, got \"novalue\"\n", refused.err());
    }
}
