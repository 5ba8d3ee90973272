/** Webhook and e-mail delivery with retries and the egress guard (filled by the webhook issue); log streaming. */
module io.meshcontrol.notify {
    requires io.meshcontrol.core;
    requires java.logging;

    exports io.meshcontrol.notify.logstream;
}
