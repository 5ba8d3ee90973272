package io.meshcontrol.core.model;

/**
 * The runtime switches of the network, kept in the database.
 *
 * @param devicesApprovalOn nodes registering without a pre-authorized key wait for approval
 * @param usersApprovalOn new users wait for approval
 * @param devicesKeyDurationDays node key lifetime in days; 0 means {@code node.expiry} from the configuration
 */
public record TailnetSettings(boolean devicesApprovalOn, boolean usersApprovalOn, int devicesKeyDurationDays) {
}
