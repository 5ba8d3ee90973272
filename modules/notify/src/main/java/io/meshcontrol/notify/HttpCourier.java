package io.meshcontrol.notify;

import io.meshcontrol.core.model.PendingDelivery;
import io.meshcontrol.core.model.WebhookTarget;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Delivers to an http(s) endpoint: the provider's body, signed, posted to the address the egress check allowed.
 * 2xx is delivered; 5xx, 429 and no answer are retried; any other answer (4xx, a redirect) is final.
 */
final class HttpCourier implements Courier {

    private final Egress egress;
    private final GuardedPost post;
    private final Tailnet tailnet;
    private final Clock clock;

    HttpCourier(Egress egress, GuardedPost post, Tailnet tailnet, Clock clock) {
        this.egress = egress;
        this.post = post;
        this.tailnet = tailnet;
        this.clock = clock;
    }

    @Override
    public Outcome attempt(WebhookTarget target, PendingDelivery delivery) {
        ProviderBodies.Request request = ProviderBodies.of(target.endpoint().provider(), target.endpoint().url(),
                delivery.events(), tailnet);
        Egress.Checked checked = egress.check(request.url());
        if (checked instanceof Egress.Refused refused) {
            String reason = "refused: " + refused.reason();
            return refused.lookupFailed() ? Outcome.retry(0, reason) : Outcome.fail(0, reason);
        }
        Map<String, String> headers = new LinkedHashMap<>(request.headers());
        headers.put("Content-Type", request.contentType());
        headers.put(Signature.HEADER, Signature.header(target.secret(), clock.instant().getEpochSecond(),
                request.body()));
        GuardedPost.Answer answer = post.post((Egress.Allowed) checked, headers, request.body());
        int status = answer.status();
        if (status == 0) {
            return Outcome.retry(0, answer.error());
        }
        if (status >= 200 && status < 300) {
            return Outcome.delivered(status);
        }
        if (status >= 300 && status < 400) {
            return Outcome.fail(status, "HTTP " + status + ": a redirect, not followed");
        }
        if (status == 429 || status >= 500) {
            return Outcome.retry(status, "HTTP " + status);
        }
        return Outcome.fail(status, "HTTP " + status);
    }
}
