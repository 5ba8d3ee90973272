package io.meshcontrol.api;

import java.util.List;

/**
 * What a new pre-auth key is unless the person making it says otherwise, the same in the console (served in
 * {@code GET /api/v1/server}), the CLI ({@code svc preauthkeys create}) and the desktop app: single use, not
 * ephemeral, not pre-approved, valid for one day. Why (docs/joining.md): a key is made to join a machine soon, so a short
 * life limits what a leaked key can do; approval stays a step of its own where device approval is on. A fleet key is
 * made reusable and longer-lived on purpose. Requests that leave {@code expiration} out (the API, Terraform) still get
 * the server's 90 days, the vendor's default.
 *
 * @param expiration Go syntax, as {@link PreAuthKeyRequest#expiration()} takes it
 */
public record NewPreAuthKeyDefaults(boolean reusable, boolean ephemeral, boolean preauthorized, String expiration) {

    public static final NewPreAuthKeyDefaults STANDARD = new NewPreAuthKeyDefaults(false, false, false, "24h");

    /** A request with these defaults wherever the person gave nothing (null). */
    public PreAuthKeyRequest request(String user, List<String> tags, Boolean reusable, Boolean ephemeral,
            Boolean preauthorized, String description, String expiration) {
        return new PreAuthKeyRequest(user, tags, reusable == null ? this.reusable : reusable,
                ephemeral == null ? this.ephemeral : ephemeral, preauthorized == null ? this.preauthorized : preauthorized,
                description, expiration == null || expiration.isBlank() ? this.expiration : HumanDuration.wire(expiration));
    }
}
