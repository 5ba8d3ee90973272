package io.meshcontrol.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.core.testing.PostgresCluster;
import io.meshcontrol.server.testing.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Behind a load balancer the CA's HTTP-01 validation may reach any instance: an answer the ordering instance put up is
 * served by the HTTP-01 listener of every instance on the database, and withdrawn from all of them.
 */
class AcmeChallengesAcrossInstancesTest {

    @TempDir
    Path folder;

    private TestServer instance(String name, Map<String, String> database) {
        TestServer.Builder builder = TestServer.in(folder.resolve(name))
                .set("server_url", "https://localhost:8443")
                .set("tls_letsencrypt_hostname", "localhost")
                .set("tls_letsencrypt_challenge_type", "HTTP-01")
                .set("tls_letsencrypt_listen", "127.0.0.1:0")
                .set("tls_letsencrypt_cache_dir", folder.resolve(name + "/acme").toString())
                .set("acme_url", "acme://pebble/localhost:1"); // no CA: nothing is ever obtained
        database.forEach(builder::set);
        return builder.start();
    }

    private static HttpResponse<String> challenge(TestServer server, String token) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + server.server.https().challengePort() + AcmeChallenges.HTTP_PATH
                + token);
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void anAnswerPutUpOnOneInstanceIsServedByTheOthersUntilWithdrawn() throws Exception {
        Assumptions.assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (run-tests installs it)");
        Map<String, String> database = PostgresCluster.shared().newEmptyDatabaseConfig();
        try (TestServer a = instance("a", database); TestServer b = instance("b", database)) {
            AcmeChallenges ordering = b.server.https().challenges();
            ordering.answerHttp("tok-EN_1", "tok-EN_1.thumbprint");

            HttpResponse<String> served = challenge(a, "tok-EN_1");
            assertEquals(200, served.statusCode());
            assertEquals("tok-EN_1.thumbprint", served.body());
            assertEquals(200, challenge(b, "tok-EN_1").statusCode());
            assertEquals(404, challenge(a, "unknown").statusCode());
            assertEquals(404, challenge(a, "not%20a%20token").statusCode());

            ordering.withdraw("tok-EN_1");
            assertEquals(404, challenge(a, "tok-EN_1").statusCode());
            assertEquals(404, challenge(b, "tok-EN_1").statusCode());
        }
    }
}
