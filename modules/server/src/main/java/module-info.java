/** Composition root: HTTP routing, the control protocol, the v1 and v2 APIs, metrics. */
// undertow.core, xnio.api and the io.prometheus modules ship no module descriptor: automatic modules.
@SuppressWarnings("requires-automatic")
module io.meshcontrol.server {
    requires transitive io.meshcontrol.core;
    requires io.meshcontrol.api;
    // Webhooks, e-mail and the audit log's stream sender.
    requires io.meshcontrol.notify;
    // The relay settings (server.relay.DerpMapSettings) name the relay's MapUrlFetcher.Resolver.
    requires transitive io.meshcontrol.relay;
    requires tools.jackson.core;
    requires tools.jackson.databind;
    requires undertow.core;
    requires xnio.api;
    requires io.prometheus.metrics.core;
    requires io.prometheus.metrics.model;
    requires io.prometheus.writer.text;
    // OIDC issuers' discovery documents and key sets (identity), ID token signatures.
    requires java.net.http;
    // The debug pages' runtime view (heap, threads).
    requires java.management;
    requires com.nimbusds.jose.jwt;
    // HTTPS certificates: PKCS#1 and SEC 1 private keys are read with its ASN.1 classes.
    requires org.bouncycastle.provider;
    // HTTPS certificates by ACME (tls_letsencrypt_*), and the placeholder certificate until the first arrives.
    requires org.shredzone.acme4j;
    requires org.bouncycastle.pkix;

    exports io.meshcontrol.server;
    // svc serve's log handlers add the request a line was logged for (LoggedRequest).
    exports io.meshcontrol.server.http to io.meshcontrol.cli;
    // The /key answer and the early payload are records written by Jackson.
    exports io.meshcontrol.server.control to tools.jackson.databind;
    // The debug pages write their rows (records) as JSON.
    exports io.meshcontrol.server.metrics to tools.jackson.databind;
    // The event stream's digests are written by Jackson.
    exports io.meshcontrol.server.live to tools.jackson.databind;
    // GET /session and /admin/session answer records written by Jackson, and POST /admin/session reads one.
    exports io.meshcontrol.server.login to tools.jackson.databind;
    // The /api/v2 request bodies are package-private records that Jackson builds.
    opens io.meshcontrol.server.v2 to tools.jackson.databind;
}
