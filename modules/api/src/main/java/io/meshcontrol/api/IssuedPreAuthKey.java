package io.meshcontrol.api;

/** A pre-auth key just created; {@code secret} is shown this once. */
public record IssuedPreAuthKey(PreAuthKeyView preAuthKey, String secret) {
}
