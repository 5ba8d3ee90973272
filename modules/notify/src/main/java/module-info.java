/** Webhook and e-mail delivery with retries and the egress guard (filled by the webhook issue). */
module io.meshcontrol.notify {
}
