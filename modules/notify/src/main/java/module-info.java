/** Webhook delivery (signed arrays, chat providers), e-mail, the durable outbox and its retries; log streaming. */
module io.meshcontrol.notify {
    requires transitive io.meshcontrol.core;
    requires java.logging;
    requires tools.jackson.core;
    requires tools.jackson.databind;
    requires jakarta.mail;
    requires org.eclipse.angus.mail;

    exports io.meshcontrol.notify;
    exports io.meshcontrol.notify.logstream;
}
