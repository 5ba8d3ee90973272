package io.meshcontrol.notify;

import io.meshcontrol.core.model.PendingDelivery;
import io.meshcontrol.core.model.WebhookTarget;

/** Makes one attempt of a delivery to its endpoint. */
@FunctionalInterface
interface Courier {

    Outcome attempt(WebhookTarget target, PendingDelivery delivery);
}
