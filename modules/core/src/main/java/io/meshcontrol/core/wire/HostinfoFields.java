package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.net.IpPrefix;
import java.util.List;

/**
 * The fields of a client's {@link Hostinfo} that this server knows (tailscale v1.104), typed. Go:
 * {@code tailcfg.Hostinfo}. Every field is optional: absent means empty, zero or false, and {@code opt.Bool} fields
 * ({@link Boolean}) absent means "unknown". The client fills it; control adds only {@code Location}. Fields a newer
 * client adds are not here but survive in the {@link Hostinfo} they came in.
 *
 * @param ipnVersion the client's version in long form ("1.102.5-t1234abcd-g..."); absent when unknown
 * @param frontendLogId logtail id of the GUI frontend; absent when none
 * @param backendLogId logtail id of tailscaled; clients send it before they register
 * @param os the operating system ("linux", "windows", "macOS", "iOS", "android" ...)
 * @param osVersion the OS version ("6.8.0-45-generic", "14.5" ...)
 * @param container whether the client runs in a container (opt.Bool)
 * @param env the hosting environment ("k8s", "lm" for Lambda ...); absent when none
 * @param distro the Linux distribution ("debian", "ubuntu" ...)
 * @param distroVersion the distribution version ("24.04")
 * @param distroCodeName the distribution code name ("noble")
 * @param app the embedding app ("k8s-operator", "tsidp" ...); absent for tailscaled
 * @param desktop whether a desktop was detected on Linux (opt.Bool)
 * @param packageName the package type ("choco", "appstore" ...); absent when unknown
 * @param deviceModel the phone model ("Pixel 3a")
 * @param pushDeviceToken an APNs token for notifications; absent when none
 * @param hostname the machine's host name; the server derives the node's name from it
 * @param shieldsUp whether the client blocks all incoming connections
 * @param shareeNode whether this node is shown only because it is shared in (set by control for peers)
 * @param noLogsNoSupport whether the user opted out of log upload
 * @param remoteConfig whether the client is managed by a remote configuration system
 * @param wireIngress whether the node wants Funnel ingress traffic
 * @param ingressEnabled whether the node has a Funnel endpoint enabled
 * @param allowsUpdate whether the client lets control trigger updates
 * @param machine the machine type ({@code uname -m})
 * @param goArch the binary's GOARCH
 * @param goArchVar the binary's GOARM/GOAMD64 level
 * @param goVersion the Go version the binary was built with
 * @param routableIps routes the client advertises (subnets; {@code 0.0.0.0/0} and {@code ::/0} for an exit node)
 * @param requestTags ACL tags the client asks to be given ({@code --advertise-tags})
 * @param wolMacs MAC addresses to send Wake-on-LAN packets to
 * @param services services the client listens on; {@code peerapi4}/{@code peerapi6} give peers its PeerAPI port
 * @param netInfo the client's network conditions (home DERP, NAT, latencies); absent in some updates, when the server
 *     keeps the previous one
 * @param sshHostKeys the host keys of Tailscale SSH; non-empty means Tailscale SSH is running
 * @param cloud the cloud the client runs in ("aws", "gcp" ...)
 * @param userspace whether the client runs in userspace networking mode (opt.Bool)
 * @param userspaceRouter whether its subnet router runs in userspace (opt.Bool)
 * @param appConnector whether it runs the app connector (opt.Bool)
 * @param servicesHash opaque hash of the tailnet services config it last fetched
 * @param peerRelay whether it offers to relay traffic for peers
 * @param exitNodeId the StableID of the exit node it uses (capver 122); absent when none
 * @param location where the node is, set by control for exit-node choice; never sent by the client itself
 * @param tpm the TPM the client found; absent when none
 * @param stateEncrypted whether its state file is encrypted at rest (opt.Bool)
 */
public record HostinfoFields(
        @JsonProperty("IPNVersion") @OmitEmpty String ipnVersion,
        @JsonProperty("FrontendLogID") @OmitEmpty String frontendLogId,
        @JsonProperty("BackendLogID") @OmitEmpty String backendLogId,
        @JsonProperty("OS") @OmitEmpty String os,
        @JsonProperty("OSVersion") @OmitEmpty String osVersion,
        @JsonProperty("Container") @OmitNull Boolean container,
        @JsonProperty("Env") @OmitEmpty String env,
        @JsonProperty("Distro") @OmitEmpty String distro,
        @JsonProperty("DistroVersion") @OmitEmpty String distroVersion,
        @JsonProperty("DistroCodeName") @OmitEmpty String distroCodeName,
        @JsonProperty("App") @OmitEmpty String app,
        @JsonProperty("Desktop") @OmitNull Boolean desktop,
        @JsonProperty("Package") @OmitEmpty String packageName,
        @JsonProperty("DeviceModel") @OmitEmpty String deviceModel,
        @JsonProperty("PushDeviceToken") @OmitEmpty String pushDeviceToken,
        @JsonProperty("Hostname") @OmitEmpty String hostname,
        @JsonProperty("ShieldsUp") @OmitEmpty boolean shieldsUp,
        @JsonProperty("ShareeNode") @OmitEmpty boolean shareeNode,
        @JsonProperty("NoLogsNoSupport") @OmitEmpty boolean noLogsNoSupport,
        @JsonProperty("RemoteConfig") @OmitEmpty boolean remoteConfig,
        @JsonProperty("WireIngress") @OmitEmpty boolean wireIngress,
        @JsonProperty("IngressEnabled") @OmitEmpty boolean ingressEnabled,
        @JsonProperty("AllowsUpdate") @OmitEmpty boolean allowsUpdate,
        @JsonProperty("Machine") @OmitEmpty String machine,
        @JsonProperty("GoArch") @OmitEmpty String goArch,
        @JsonProperty("GoArchVar") @OmitEmpty String goArchVar,
        @JsonProperty("GoVersion") @OmitEmpty String goVersion,
        @JsonProperty("RoutableIPs") @OmitEmpty List<IpPrefix> routableIps,
        @JsonProperty("RequestTags") @OmitEmpty List<String> requestTags,
        @JsonProperty("WoLMACs") @OmitEmpty List<String> wolMacs,
        @JsonProperty("Services") @OmitEmpty List<Service> services,
        @JsonProperty("NetInfo") @OmitNull NetInfo netInfo,
        @JsonProperty("sshHostKeys") @OmitEmpty List<String> sshHostKeys,
        @JsonProperty("Cloud") @OmitEmpty String cloud,
        @JsonProperty("Userspace") @OmitNull Boolean userspace,
        @JsonProperty("UserspaceRouter") @OmitNull Boolean userspaceRouter,
        @JsonProperty("AppConnector") @OmitNull Boolean appConnector,
        @JsonProperty("ServicesHash") @OmitEmpty String servicesHash,
        @JsonProperty("PeerRelay") @OmitEmpty boolean peerRelay,
        @JsonProperty("ExitNodeID") @OmitEmpty String exitNodeId,
        @JsonProperty("Location") @OmitNull Location location,
        @JsonProperty("TPM") @OmitNull TPMInfo tpm,
        @JsonProperty("StateEncrypted") @OmitNull Boolean stateEncrypted) {

    public HostinfoFields {
        ipnVersion = Copies.text(ipnVersion);
        frontendLogId = Copies.text(frontendLogId);
        backendLogId = Copies.text(backendLogId);
        os = Copies.text(os);
        osVersion = Copies.text(osVersion);
        env = Copies.text(env);
        distro = Copies.text(distro);
        distroVersion = Copies.text(distroVersion);
        distroCodeName = Copies.text(distroCodeName);
        app = Copies.text(app);
        packageName = Copies.text(packageName);
        deviceModel = Copies.text(deviceModel);
        pushDeviceToken = Copies.text(pushDeviceToken);
        hostname = Copies.text(hostname);
        machine = Copies.text(machine);
        goArch = Copies.text(goArch);
        goArchVar = Copies.text(goArchVar);
        goVersion = Copies.text(goVersion);
        routableIps = Copies.orEmpty(routableIps);
        requestTags = Copies.orEmpty(requestTags);
        wolMacs = Copies.orEmpty(wolMacs);
        services = Copies.orEmpty(services);
        sshHostKeys = Copies.orEmpty(sshHostKeys);
        cloud = Copies.text(cloud);
        servicesHash = Copies.text(servicesHash);
        exitNodeId = Copies.text(exitNodeId);
    }
}
