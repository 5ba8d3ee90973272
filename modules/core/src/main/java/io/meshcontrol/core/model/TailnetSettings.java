package io.meshcontrol.core.model;

/**
 * The runtime switches of the network, kept in the database.
 *
 * @param devicesApprovalOn nodes registering without a pre-authorized key wait for approval
 * @param usersApprovalOn new users wait for approval
 * @param devicesKeyDurationDays node key lifetime in days; 0 means {@code node.expiry} from the configuration
 * @param postureIdentityCollectionOn nodes are asked for their serial numbers (the vendor's posture identity)
 */
public record TailnetSettings(boolean devicesApprovalOn, boolean usersApprovalOn, int devicesKeyDurationDays,
        boolean postureIdentityCollectionOn) {

    /** The node key lifetime in force: this setting's days, else {@code configured}; zero means keys never expire. */
    public java.time.Duration nodeKeyLifetime(java.time.Duration configured) {
        return devicesKeyDurationDays > 0 ? java.time.Duration.ofDays(devicesKeyDurationDays) : configured;
    }
}
