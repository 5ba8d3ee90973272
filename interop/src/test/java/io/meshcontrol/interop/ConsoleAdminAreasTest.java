package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.AccessRequestView;
import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.AppView;
import io.meshcontrol.api.AuditQuery;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.OAuthClientView;
import io.meshcontrol.api.RoutesView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.api.WebhookView;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.Await;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.LoopbackHttpServer;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * The console's administration pages (docs/console.md): webhooks with their deliveries, apps, the audit log, global
 * exit nodes, OAuth clients and federated identities, access requests; each task done end to end through the page in
 * Debian's chromium against a real server, checked against the API, and each page checked with axe-core at 1280 and
 * 390 px in both schemes.
 */
class ConsoleAdminAreasTest {

    @TempDir
    Path folder;
    private TestServer server;
    private ConsoleBrowser browser;
    private LoopbackHttpServer receiver;

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
        if (receiver != null) {
            receiver.close();
        }
    }

    /** Holds the answer of the page's next request for a delivery history until {@code releaseFirstDeliveries()}. */
    private static final String HOLD_FIRST_DELIVERIES_ANSWER = """
            const done = arguments[arguments.length - 1];
            const send = window.fetch;
            let release;
            const gate = new Promise((resolve) => { release = resolve; });
            window.releaseFirstDeliveries = release;
            window.fetch = (url, init) => {
              if (window.firstDeliveries || !String(url).endsWith('/deliveries')) return send(url, init);
              window.firstDeliveries = send(url, init)
                .then(async (r) => new Response(await r.text(), { status: r.status, headers: r.headers }));
              return gate.then(() => window.firstDeliveries);
            };
            done(true);
            """;

    /** Lets the held answer through once the server has given it, and returns after the page has dealt with it. */
    private static final String RELEASE_FIRST_DELIVERIES_ANSWER = """
            const done = arguments[arguments.length - 1];
            window.firstDeliveries.then(() => {
              window.releaseFirstDeliveries();
              setTimeout(() => done(true), 500);
            });
            """;

    /** A server with alice, an admin, signed in to the console. */
    private MeshClient start(UnaryOperator<TestServer.Builder> more) {
        server = more.apply(TestServer.in(folder).reachableServerUrl()).start();
        browser = ConsoleBrowser.open(server.url());
        MeshClient admin = server.adminClient();
        admin.createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
        browser.signIn(admin.createApiKey(new ApiKeyRequest("alice", List.of(), "console test", "24h")).secret());
        return admin;
    }

    private static By button(String text) {
        return By.xpath("//button[normalize-space()='" + text + "']");
    }

    private static By within(String row, String text) {
        return By.xpath("//*[@" + row + "]//button[normalize-space()='" + text + "']");
    }

    private String shownSecret() {
        return browser.waitFor(By.cssSelector("[data-secret]")).getText();
    }

    @Test
    void aWebhookIsCreatedTestedRotatedAndDeletedAndItsDeliveriesAreShown() throws InterruptedException {
        receiver = new LoopbackHttpServer().serve("/hook", "{}");
        MeshClient admin = start(b -> b.set("egress.allow_loopback_targets", "true"));
        browser.go("webhooks");
        String url = receiver.url("/hook");
        browser.type(By.id("webhook-url"), url);
        browser.click(By.xpath("//input[@name='events' and @value='userCreated']"));
        browser.click(button("Create webhook"));
        String first = shownSecret();
        WebhookView hook = admin.webhooks().getFirst();
        assertEquals(url, hook.url());
        assertEquals(List.of("userCreated"), hook.subscriptions());
        browser.assertAccessibleEverywhere("console-webhooks");

        // The history's first load (no deliveries yet) is held back in the page until a newer load has shown the test
        // event's delivery: the older answer, arriving last, must not replace the newer one.
        browser.inPage(HOLD_FIRST_DELIVERIES_ANSWER);
        browser.click(within("data-webhook", "Show deliveries"));
        browser.waitForText("Loading deliveries");
        browser.click(within("data-webhook", "Send test event"));
        browser.waitFor(By.cssSelector("[data-deliveries] tr[data-delivery]"));
        browser.waitForText("200");
        assertEquals(1, receiver.requestsFor("/hook"), "the test event reached the receiver");
        browser.inPage(RELEASE_FIRST_DELIVERIES_ANSWER);
        assertTrue(browser.present(By.cssSelector("[data-deliveries] tr[data-delivery]")),
                "the older, empty answer did not replace the delivery shown: " + browser.text());
        admin.createUser(new UserRequest("bob", null, null, "member"));
        // The delivery is made after the change, in the background: Refresh shows it once the server has it.
        Await.until("the userCreated delivery recorded", () -> admin.webhookDeliveries(hook.id()).stream()
                .anyMatch(delivery -> delivery.eventTypes().contains("userCreated")));
        browser.click(By.xpath("//button[normalize-space()='Refresh']"));
        browser.waitFor(By.xpath("//tr[@data-delivery][.//*[normalize-space()='userCreated']]"));
        List<String> rows = browser.texts(By.cssSelector("tr[data-delivery] td[data-label='Events']"));
        assertEquals("userCreated", rows.getFirst().trim(), "the newest delivery comes first: " + rows);
        browser.assertAccessibleEverywhere("console-webhook-deliveries");

        String question = browser.clickAndConfirm(within("data-webhook", "Rotate secret"));
        assertTrue(question.contains("old secret stops signing"), question);
        browser.waitForText("The new signing secret of " + url);
        assertNotEquals(first, shownSecret(), "a new secret");

        question = browser.clickAndConfirm(within("data-webhook", "Delete"));
        assertTrue(question.contains("No more events are sent"), question);
        browser.waitForText("No webhooks.");
        assertEquals(List.of(), admin.webhooks());
    }

    @Test
    void anAppIsCreatedChangedAndDeletedAndTheAuditLogIsFilteredPagedAndDownloaded() {
        MeshClient admin = start(b -> b);
        browser.go("apps");
        browser.type(By.id("app-new-name"), "github");
        browser.type(By.id("app-new-domains"), "github.com, *.github.com");
        browser.type(By.id("app-new-connectors"), "tag:connector");
        browser.click(button("Create app"));
        browser.waitFor(By.cssSelector("section[data-app='github']"));
        AppView app = admin.apps().getFirst();
        assertEquals(List.of("github.com", "*.github.com"), app.domains());
        assertEquals(List.of("tag:connector"), app.connectors());
        browser.waitForText("No connector machine acts for this app yet");
        browser.assertAccessibleEverywhere("console-apps");

        browser.click(button("Edit github"));
        browser.type(By.id("app-" + app.id() + "-routes"), "192.0.2.0/24");
        browser.click(button("Save github"));
        browser.waitForText("192.0.2.0/24");
        assertEquals(List.of("192.0.2.0/24"), admin.app(app.id()).routes());
        browser.type(By.id("app-new-name"), "bad");
        browser.type(By.id("app-new-routes"), "0.0.0.0/0");
        browser.click(button("Create app"));
        browser.waitFor(By.cssSelector("[role='alert']"));
        assertEquals(1, admin.apps().size(), "a refused app is not made");

        for (int i = 0; i < 105; i++) { // more than one page of the audit log
            admin.createUser(new UserRequest("user" + i, null, null, "member"));
        }
        browser.go("audit");
        browser.waitFor(By.cssSelector("[data-audit-count='100']"));
        browser.click(button("Older entries"));
        browser.waitFor(By.cssSelector("[data-audit-count]:not([data-audit-count='100'])"));
        int all = Integer.parseInt(browser.waitFor(By.cssSelector("[data-audit-count]")).getDomAttribute("data-audit-count"));
        assertEquals(admin.audit(new AuditQuery(null, null, null, null, null, null, 1000)).entries().size(), all);

        browser.type(By.id("audit-action"), "app.");
        browser.click(button("Filter"));
        browser.waitFor(By.cssSelector("[data-audit-count='2']"));
        assertEquals(List.of("app.update", "app.create"), browser.texts(By.cssSelector("tr[data-audit] td[data-label='Action']")));
        browser.assertAccessibleEverywhere("console-audit");

        // The download is a Blob the page makes: catch it where the page hands it to the browser.
        browser.inPage("const done = arguments[arguments.length - 1];"
                + "const make = URL.createObjectURL; window.__downloads = [];"
                + "URL.createObjectURL = (blob) => { blob.text().then((t) => window.__downloads.push(t)); return make(blob); };"
                + "done(true);");
        browser.click(button("Download JSON Lines"));
        String lines = (String) browser.inPage("const done = arguments[arguments.length - 1];"
                + "const wait = () => window.__downloads.length ? done(window.__downloads[0]) : setTimeout(wait, 50); wait();");
        List<String> entries = lines.lines().toList();
        assertEquals(2, entries.size(), lines);
        assertTrue(entries.get(0).contains("\"action\":\"app.update\"") && entries.get(1).contains("\"action\":\"app.create\""), lines);

        browser.go("apps");
        String question = browser.clickAndConfirm(button("Delete github"));
        assertTrue(question.contains("stop routing its domains"), question);
        browser.waitForText("No apps.");
        assertEquals(List.of(), admin.apps());
    }

    @Test
    void aGlobalExitNodeIsMarkedGivenAPriorityAndClearedAndTheExitNodesPageShowsIt() {
        MeshClient admin = start(b -> b);
        String key = AuthKey.forUser("alice").reusable().preauthorized().create(server.network);
        Node exit = Machine.named("exit-fra").hostinfo("{\"Hostname\":\"exit-fra\",\"RoutableIPs\":[\"0.0.0.0/0\","
                + "\"::/0\"],\"NetInfo\":{\"PreferredDERP\":900}}").join(server.network, key);
        Machine.named("exit-ams").advertising("0.0.0.0/0", "::/0").join(server.network, key);
        String id = Long.toString(exit.id());
        browser.go("exit-nodes");
        browser.waitFor(By.cssSelector("tr[data-exit-node='exit-fra']"));
        browser.waitForText("waiting for approval");

        browser.go("machines/" + id);
        browser.waitFor(By.cssSelector("[data-global-exit='not marked']"));
        browser.type(By.id("exit-priority"), "100");
        browser.click(button("Mark as global exit node"));
        browser.waitFor(By.cssSelector("[data-global-exit='marked']"));
        RoutesView routes = admin.nodeRoutes(id);
        assertTrue(routes.globalExitNode());
        assertEquals(100, routes.exitNodePriority());
        assertTrue(routes.approved().containsAll(List.of("0.0.0.0/0", "::/0")), "marking approves the exit routes");
        browser.assertAccessibleEverywhere("console-machine-exit-node");

        browser.type(By.id("exit-priority"), "50");
        browser.click(button("Set priority"));
        browser.waitForText("priority 50");
        assertEquals(50, admin.nodeRoutes(id).exitNodePriority());

        browser.go("exit-nodes");
        browser.waitFor(By.xpath("//tr[@data-exit-node='exit-fra']/td[@data-label='Priority'][normalize-space()='50']"));
        assertEquals("DERP region 900", browser.waitFor(By.cssSelector("tr[data-exit-node='exit-fra'] td[data-region]"))
                .getText(), "the home region exit-fra reports");
        String other = browser.waitFor(By.cssSelector("tr[data-exit-node='exit-ams'] td[data-pick]")).getText();
        assertEquals("not serving its exit routes", other, "exit-ams is not approved");
        browser.assertAccessibleEverywhere("console-exit-nodes");

        browser.go("machines/" + id);
        String question = browser.clickAndConfirm(button("Clear the mark"));
        assertTrue(question.contains("priority goes back to 0"), question);
        browser.waitFor(By.cssSelector("[data-global-exit='not marked']"));
        assertFalse(admin.nodeRoutes(id).globalExitNode());
    }

    @Test
    void anOAuthClientAndAFederatedIdentityAreCreatedChangedAndRevoked() {
        MeshClient admin = start(b -> b);
        admin.setPolicy("{\"tagOwners\": {\"tag:ci\": []}, \"acls\": [{\"action\": \"accept\", \"src\": [\"*\"], "
                + "\"dst\": [\"*:*\"]}]}");
        browser.go("oauth-clients");
        browser.type(By.id("oauth-client-description"), "ci reader");
        browser.type(By.id("oauth-client-scopes"), "devices:core:read");
        browser.click(button("Create OAuth client"));
        String secret = shownSecret();
        OAuthClientView client = admin.oauthClients().getFirst();
        assertTrue(secret.contains(client.id()), "the secret shown is the new client's: " + secret);
        assertEquals(List.of("devices:core:read"), client.scopes());

        browser.type(By.id("oauth-federated-description"), "deploys");
        browser.type(By.id("oauth-federated-scopes"), "auth_keys");
        browser.type(By.id("oauth-federated-tags"), "tag:ci");
        browser.type(By.id("oauth-federated-issuer"), "https://token.actions.githubusercontent.com");
        browser.type(By.id("oauth-federated-subject"), "repo:example/app:*");
        browser.type(By.id("oauth-federated-claims"), "repository_owner=example");
        browser.click(button("Create federated identity"));
        browser.waitForText("deploys"); // prints the page (a refusal) when it does not come
        browser.waitFor(By.cssSelector("li[data-oauth-client='deploys']"));
        OAuthClientView identity = admin.oauthClients().stream().filter(c -> c.keyType().equals("federated")).findFirst()
                .orElseThrow();
        assertEquals("repo:example/app:*", identity.subject());
        assertEquals(Map.of("repository_owner", "example"), identity.customClaimRules());
        browser.assertAccessibleEverywhere("console-oauth-clients");

        browser.click(button("Edit deploys"));
        browser.type(By.id("oauth-" + identity.id() + "-subject"), "repo:example/app:ref:refs/heads/main");
        browser.click(button("Save deploys"));
        browser.waitForText("repo:example/app:ref:refs/heads/main");
        assertEquals("repo:example/app:ref:refs/heads/main", admin.oauthClients().stream()
                .filter(c -> c.id().equals(identity.id())).findFirst().orElseThrow().subject());

        String question = browser.clickAndConfirm(By.xpath("//li[@data-oauth-client='ci reader']//button[normalize-space()='Revoke']"));
        assertTrue(question.contains("stop working at once"), question);
        browser.waitForText("revoked");
        assertTrue(admin.oauthClients().stream().filter(c -> c.id().equals(client.id())).allMatch(OAuthClientView::revoked));
    }

    @Test
    void anAccessRequestIsAskedApprovedRevokedAndAnotherDenied() {
        MeshClient admin = start(b -> b);
        admin.createUser(new UserRequest("bob", null, "bob@example.com", "member"));
        admin.setPolicy("{\"groups\": {\"group:oncall\": []}, \"acls\": [{\"action\": \"accept\", \"src\": [\"*\"], "
                + "\"dst\": [\"*:*\"]}]}");
        browser.go("access-requests");
        browser.type(By.id("access-user"), "bob");
        browser.type(By.id("access-group"), "group:oncall");
        browser.type(By.id("access-reason"), "incident 42");
        browser.selectByText(By.id("access-duration"), "other…");
        browser.type(By.id("access-duration-other"), "2 hours"); // as a person writes it; sent as 2h
        browser.click(button("Ask"));
        browser.waitFor(By.cssSelector("tr[data-access-request][data-state='pending']"));
        browser.assertAccessibleEverywhere("console-access-requests");

        String question = browser.clickAndConfirm(button("Approve"));
        assertTrue(question.contains("bob joins group:oncall for 2h"), question);
        browser.waitFor(By.cssSelector("tr[data-access-request][data-state='approved']"));
        AccessRequestView approved = admin.accessRequests().getFirst();
        assertEquals("approved", approved.state());
        assertTrue(approved.expiresAt() != null, "an approval ends by itself");

        question = browser.clickAndConfirm(button("Revoke"));
        assertTrue(question.contains("bob leaves group:oncall now"), question);
        browser.waitFor(By.cssSelector("tr[data-access-request][data-state='revoked']"));

        browser.type(By.id("access-user"), "bob");
        browser.type(By.id("access-group"), "group:oncall");
        browser.type(By.id("access-reason"), "again");
        browser.click(button("Ask"));
        browser.click(button("Deny"));
        browser.waitFor(By.cssSelector("tr[data-access-request][data-state='denied']"));
        assertEquals(List.of("denied", "revoked"), admin.accessRequests().stream()
                .sorted((a, b) -> Long.compare(Long.parseLong(b.id()), Long.parseLong(a.id())))
                .map(AccessRequestView::state).toList());
    }

    @Test
    void theAuditLogIsStreamedToADestinationAndTheStreamStopped() {
        receiver = new LoopbackHttpServer().serve("/ingest", "{}");
        MeshClient admin = start(b -> b.set("egress.allow_loopback_targets", "true"));
        browser.go("log-streams");
        browser.waitFor(By.cssSelector("[data-stream='none']"));
        browser.type(By.id("stream-url"), receiver.url("/ingest"));
        browser.type(By.id("stream-token"), "secret-token");
        browser.click(button("Save"));
        browser.waitFor(By.cssSelector("[data-stream='http']"));
        admin.createUser(new UserRequest("bob", null, null, "member"));
        browser.waitFor(By.xpath("//dd[@data-entries-sent][not(starts-with(normalize-space(), '0 '))]"));
        assertTrue(receiver.requestsFor("/ingest") > 0, "the destination got the entries");
        assertTrue(receiver.requests.stream().anyMatch(r -> r.body().contains("user.create")), "the audit entries");
        browser.assertAccessibleEverywhere("console-log-streams");

        String question = browser.clickAndConfirm(button("Stop streaming"));
        assertTrue(question.contains("are not sent"), question);
        browser.waitFor(By.cssSelector("[data-stream='none']"));
    }

    @Test
    void aPostureIntegrationIsAddedItsSecretReplacedAndItIsRemoved() {
        MeshClient admin = start(b -> b);
        browser.go("posture");
        browser.selectByText(By.id("posture-provider"), "Kolide");
        browser.type(By.id("posture-clientId"), "kolide-client");
        browser.type(By.id("posture-clientSecret"), "s3cret");
        browser.click(button("Add integration"));
        browser.waitFor(By.cssSelector("tr[data-posture='kolide']"));
        assertFalse(browser.text().contains("s3cret"), "the secret is never shown");
        browser.selectByText(By.id("posture-provider"), "Kolide");
        browser.type(By.id("posture-clientSecret"), "again");
        browser.click(button("Add integration"));
        browser.waitForText("a posture integration for kolide exists already");
        browser.assertAccessibleEverywhere("console-posture");

        By newSecret = By.cssSelector("tr[data-posture='kolide'] input[type='password']");
        browser.type(newSecret, "n3w");
        browser.click(button("Replace secret"));
        browser.waitForValue(newSecret, ""); // emptied once saved
        assertEquals("true", admin.audit(new AuditQuery(null, "posture.integration.update", null, null, null, null, 10))
                .entries().getFirst().details().get("clientSecretChanged"), "the secret was replaced");
        String question = browser.clickAndConfirm(button("Remove"));
        assertTrue(question.contains("Its secret is deleted"), question);
        browser.waitForText("No integrations.");
    }

    @Test
    void aServiceIsCreatedGivenAddressesChangedAndRemoved() {
        MeshClient admin = start(b -> b);
        admin.setPolicy("{\"tagOwners\": {\"tag:web\": []}, \"acls\": [{\"action\": \"accept\", \"src\": [\"*\"], "
                + "\"dst\": [\"*:*\"]}]}");
        browser.go("services");
        browser.type(By.id("service-name"), "web");
        browser.type(By.id("service-ports"), "tcp:443");
        browser.type(By.id("service-tags"), "tag:web");
        browser.click(button("Save service"));
        browser.waitFor(By.cssSelector("tr[data-service='svc:web']"));
        String addresses = browser.waitFor(By.cssSelector("tr[data-service='svc:web'] td[data-label='Addresses']")).getText();
        assertTrue(addresses.matches("100\\.\\d+\\.\\d+\\.\\d+, fd7a:.*"), addresses);
        browser.assertAccessibleEverywhere("console-services");

        browser.click(button("Edit svc:web"));
        browser.type(By.id("service-ports"), "tcp:443, tcp:80");
        browser.click(button("Save service"));
        browser.waitFor(By.xpath("//tr[@data-service='svc:web']//span[normalize-space()='tcp:80']"));
        assertEquals(addresses, browser.waitFor(By.cssSelector("tr[data-service='svc:web'] td[data-label='Addresses']"))
                .getText(), "a replaced service keeps its addresses");
        browser.type(By.id("service-name"), "bad name");
        browser.click(button("Save service"));
        browser.waitForText("invalid service name");

        String question = browser.clickAndConfirm(button("Remove"));
        assertTrue(question.contains("svc:web"), question);
        browser.waitForText("No services.");
    }

    @Test
    void aLostServerShowsOneClearStateWithARetryAndARoleChangeAsksFirst() {
        MeshClient admin = start(b -> b);
        admin.createUser(new UserRequest("bob", null, null, "member"));
        browser.go("users");
        browser.selectByText(By.cssSelector("select[aria-label='Role of bob']"), "auditor");
        assertEquals("member", admin.user("bob").role(), "choosing a role does not save it");
        String question = browser.clickAndConfirm(By.xpath("//tr[@data-user='bob']//button[normalize-space()='Save role']"));
        assertTrue(question.contains("from member to auditor"), question);
        browser.waitFor(By.xpath("//tr[@data-user='bob']//select[@aria-label='Role of bob']"));
        browser.waitGone(By.xpath("//tr[@data-user='bob']//button[normalize-space()='Save role']"));
        assertEquals("auditor", admin.user("bob").role());
        browser.selectByText(By.cssSelector("select[aria-label='Role of alice']"), "member");
        question = browser.clickAndConfirm(By.xpath("//tr[@data-user='alice']//button[normalize-space()='Save role']"));
        assertTrue(question.contains("your own role") && question.contains("You may lose access"), question);

        browser.go("machines");
        server.close();
        server = null;
        browser.waitFor(By.cssSelector("[data-lost-server]"));
        String page = browser.text();
        assertTrue(page.contains("The server cannot be reached."), page);
        assertFalse(page.contains("Failed to fetch") || page.contains("Loading machines"), page);
        assertTrue(browser.present(button("Retry now")), page);
        browser.assertAccessibleEverywhere("console-lost-server");
    }
}
