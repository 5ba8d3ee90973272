package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.server.testing.TestCertificateAuthority;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConnectionScreenTest {

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            app.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private RunningApp start() throws Exception {
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath());
        return app;
    }

    @Test
    void connectsToTheLocalServerWithoutAKey() throws Exception {
        server = TestServer.start(folder);
        start().connectLocally();
        assertTrue(app.text("#serverLabel").contains(server.url().toString()), app.text("#serverLabel"));
        app.screenshot("desktop-machines-empty");
    }

    @Test
    void connectsToARemoteServerWithAnApiKeyAndKeepsTheKeyOwnerOnly() throws Exception {
        server = TestServer.start(folder);
        String secret = server.adminClient().createApiKey(new ApiKeyRequest(null, null, "desktop", null)).secret();
        start();
        app.click("#newServer");
        app.type("#serverName", "home");
        app.type("#serverAddress", server.url().toString());
        app.type("#apiKey", secret);
        app.screenshot("desktop-connect");
        app.click("#connect");
        app.awaitShown("#serverLabel");
        assertEquals("home", app.onFx(() -> ((io.meshcontrol.gui.connect.Profile) app.robot.lookup("#serverChooser")
                .queryAs(javafx.scene.control.ComboBox.class).getValue()).name()));

        Path config = folder.resolve("config");
        Path keyFile = io.meshcontrol.gui.connect.DesktopSettings.in(config).keyFile("home");
        assertEquals(secret, Files.readString(keyFile));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile.getParent())));
        assertTrue(!Files.readString(config.resolve("desktop.json")).contains(secret), "the key stays out of desktop.json");

        // Next time the window offers the last server with its key.
        app.close();
        app = RunningApp.start(config, server.localCredentialPath());
        assertEquals(server.url().toString(), app.text("#serverAddress"));
        assertEquals(secret, app.text("#apiKey"));
        app.click("#connect");
        app.awaitShown("#serverLabel");
    }

    @Test
    void aWrongKeyIsRefusedWithAMessage() throws Exception {
        server = TestServer.start(folder);
        start();
        app.click("#newServer");
        app.type("#serverAddress", server.url().toString());
        app.type("#apiKey", "svc_wrong_key");
        app.click("#connect");
        app.await("the refusal", () -> !app.text("#connectionMessage").isEmpty());
        assertTrue(app.text("#connectionMessage").startsWith("The server refused the credential"),
                app.text("#connectionMessage"));
        app.screenshot("desktop-wrong-key");
    }

    @Test
    void anUnreachableServerIsNamed() throws Exception {
        server = TestServer.start(folder);
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        start();
        app.click("#newServer");
        app.type("#serverAddress", "http://127.0.0.1:" + closedPort);
        app.type("#apiKey", "svc_any");
        app.click("#connect");
        app.await("the failure", () -> !app.text("#connectionMessage").isEmpty());
        assertTrue(app.text("#connectionMessage").startsWith("cannot reach the server at http://127.0.0.1:" + closedPort),
                app.text("#connectionMessage"));
        // Said in words, not as the JDK's exception class.
        assertTrue(app.text("#connectionMessage").contains("the connection was refused"), app.text("#connectionMessage"));
        assertFalse(app.text("#connectionMessage").contains("Exception"), app.text("#connectionMessage"));
    }

    @Test
    void anUntrustedCertificateIsExplainedAndTheInsecureOptionConnects() throws Exception {
        TestCertificateAuthority ca = TestCertificateAuthority.create("Lab Root");
        ca.issue(folder.resolve("tls/cert.pem"), folder.resolve("tls/key.pem"), "localhost", "127.0.0.1");
        server = TestServer.in(folder).set("server_url", "https://localhost:8443")
                .set("tls_cert_path", folder.resolve("tls/cert.pem").toString())
                .set("tls_key_path", folder.resolve("tls/key.pem").toString())
                .start();
        String secret = server.adminClient().createApiKey(new ApiKeyRequest(null, null, "lab", null)).secret();
        start();
        app.click("#newServer");
        app.type("#serverAddress", "https://127.0.0.1:" + server.url().getPort());
        app.type("#apiKey", secret);
        app.click("#connect");
        app.await("the refusal", () -> !app.text("#connectionMessage").isEmpty());
        assertTrue(app.text("#connectionMessage").startsWith("The server's certificate could not be verified"),
                app.text("#connectionMessage"));
        assertTrue(app.text("#connectionMessage").contains("Skip certificate check"), app.text("#connectionMessage"));
        app.screenshot("desktop-certificate-problem");

        app.click("#insecure");
        app.click("#connect");
        app.awaitShown("#serverLabel");
    }

    @Test
    void aServerOfAnotherVersionIsConnectedWithAWarning() throws Exception {
        server = TestServer.start(folder, "9.9.9");
        start().connectLocally();
        assertTrue(app.text("#versionWarning").contains("server of version 9.9.9"), app.text("#versionWarning"));
    }

    @SuppressWarnings("unchecked")
    private javafx.scene.control.TableColumn<Object, ?> column(String table, String title) {
        return app.onFx(() -> ((javafx.scene.control.TableView<Object>) app.robot.lookup(table)
                .queryAs(javafx.scene.control.TableView.class)).getColumns().stream()
                .filter(column -> column.getText().equals(title)).findFirst().orElseThrow());
    }

    @Test
    void aColumnWidthTheUserSetIsRememberedForNextTime() throws Exception {
        server = TestServer.start(folder);
        server.adminClient().createUser(new io.meshcontrol.api.UserRequest("odin", null, null, null));
        start().connectLocally();
        double fitted = app.onFx(() -> column("#machines", "Owner").getWidth());
        // What dragging the header's edge does: the table's resize policy widens the column by 80 px.
        javafx.scene.control.TableColumn<Object, ?> owner = column("#machines", "Owner");
        app.onFx(() -> owner.getTableView().resizeColumn(owner, 80));
        double wanted = Math.rint(fitted + 80);
        Path config = folder.resolve("config");
        app.await("saved", () -> Double.valueOf(wanted).equals(io.meshcontrol.gui.connect.DesktopSettings.in(config)
                .columnWidths("machines").get("Owner")));

        app.click("Keys"); // a table of another tab
        javafx.scene.control.TableColumn<Object, ?> prefix = column("#apiKeys", "Prefix");
        app.onFx(() -> prefix.getTableView().resizeColumn(prefix, 30));
        app.await("saved too", () -> io.meshcontrol.gui.connect.DesktopSettings.in(config).columnWidths("apiKeys")
                .containsKey("Prefix"));

        app.close();
        app = RunningApp.start(config, server.localCredentialPath()).connectLocally();
        // A machine joining makes the table fit its columns to their content again: the user's width stays.
        io.meshcontrol.core.testing.Machine.named("laptop").join(server.network,
                io.meshcontrol.core.testing.AuthKey.forUser("odin").create(server.network));
        app.awaitShown("laptop");
        org.testfx.util.WaitForAsyncUtils.waitForFxEvents(); // the fitting queued by the new row has run
        assertEquals(wanted, app.onFx(() -> column("#machines", "Owner").getWidth()));
    }
}
