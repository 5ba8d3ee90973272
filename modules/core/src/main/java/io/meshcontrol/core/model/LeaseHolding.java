package io.meshcontrol.core.model;

import java.time.Duration;

/**
 * Who holds a lease of singleton work now.
 *
 * @param holder    the instance holding it
 * @param epoch     grows by one each time the lease changes hands
 * @param remaining how long it stays held without a renewal, by the database's clock
 */
public record LeaseHolding(String name, String holder, long epoch, Duration remaining) {
}
