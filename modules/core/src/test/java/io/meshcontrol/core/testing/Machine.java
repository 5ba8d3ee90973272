package io.meshcontrol.core.testing;

import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.Registrations;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A machine about to join a network, as its {@code /machine/register} request would describe it: fresh machine and
 * node keys unless given, a host name, and a Hostinfo naming it. The one way tests register nodes:
 * <pre>{@code Node laptop = Machine.named("laptop").join(network, authKey);}</pre>
 */
public final class Machine {

    private final String hostname;
    private MachinePublicKey machineKey = MachinePrivateKey.generate().publicKey();
    private NodePublicKey nodeKey = NodePrivateKey.generate().publicKey();
    private String hostinfo;
    private List<String> requestTags = List.of();

    private Machine(String hostname) {
        this.hostname = hostname;
        this.hostinfo = "{\"Hostname\":\"" + hostname + "\"}";
    }

    public static Machine named(String hostname) {
        return new Machine(hostname);
    }

    public Machine machineKey(MachinePublicKey key) {
        this.machineKey = key;
        return this;
    }

    public Machine nodeKey(NodePublicKey key) {
        this.nodeKey = key;
        return this;
    }

    /** The Hostinfo as the client sends it (JSON); by default one with only the host name. */
    public Machine hostinfo(String json) {
        this.hostinfo = json;
        return this;
    }

    /** A Hostinfo advertising {@code prefixes} as subnet routes ({@code RoutableIPs}). */
    public Machine advertising(String... prefixes) {
        return hostinfo("{\"Hostname\":\"" + hostname + "\",\"RoutableIPs\":["
                + Arrays.stream(prefixes).map(p -> "\"" + p + "\"").collect(Collectors.joining(",")) + "]}");
    }

    /** Tags the machine asks for ({@code --advertise-tags}). */
    public Machine requestingTags(List<String> tags) {
        this.requestTags = List.copyOf(tags);
        return this;
    }

    public Registrations.Request request() {
        return new Registrations.Request(machineKey, nodeKey, hostname, hostinfo, requestTags);
    }

    /** Registers with a pre-auth key; the outcome says whether the node was new. */
    public Registrations.Registered register(Network network, String authKey) {
        return network.registrations().withAuthKey(request(), authKey);
    }

    /** Registers with a pre-auth key and returns the node. */
    public Node join(Network network, String authKey) {
        return register(network, authKey).node();
    }
}
