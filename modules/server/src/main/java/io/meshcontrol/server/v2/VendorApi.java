package io.meshcontrol.server.v2;

import io.meshcontrol.core.state.Network;
import java.time.Clock;

/**
 * Every {@code /api/v2} resource this server has, registered once by the composition root. What each operation needs
 * and does is documented where it is registered, and served at {@code /api/v2/docs}.
 *
 * @param baseDomain the MagicDNS domain device names live under
 */
public record VendorApi(Network network, String baseDomain, String version, Clock clock) {

    public void register(V2Routes v2) {
        new DeviceResource(network.nodes(), network.posture(), network.routeApprovals(), network.snapshots(),
                baseDomain, node -> network.tailnetLock().lockedOut(node).map(locked -> "locked out by tailnet lock ("
                        + locked.reason() + "): run `" + locked.signCommand() + "` on a signing machine")
                        .orElse("")).register(v2);
        new PolicyFileResource(network.policies()).register(v2);
        new DnsResource(network.dns()).register(v2);
        new TailnetSettingsResource(network.settings(), network.policies()).register(v2);
        new UserResource(network.users(), network.snapshots(), network.tailnetId(), clock).register(v2);
        new ServiceResource(network.vipServices()).register(v2);
        new PostureResource(network.posture()).register(v2);
        new LogStreamResource(network.logStreams()).register(v2);
        UnsupportedResources.register(v2);
        new V2DocsPage(v2, version).register();
        new V2OpenApi(v2, version).register();
    }
}
