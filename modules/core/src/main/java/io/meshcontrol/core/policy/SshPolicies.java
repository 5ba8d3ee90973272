package io.meshcontrol.core.policy;

import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.net.IpAddressPort;
import io.meshcontrol.core.wire.SSHAction;
import io.meshcontrol.core.wire.SSHEventNotifyRequest;
import io.meshcontrol.core.wire.SSHRecorderFailureAction;
import io.meshcontrol.core.wire.SSHPolicy;
import io.meshcontrol.core.wire.SSHPrincipal;
import io.meshcontrol.core.wire.SSHRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The Tailscale SSH policy of one machine: the {@code ssh} rules it is a destination of, in policy order (the
 * client takes the first match), with the source machines as principals by address.
 */
final class SshPolicies {

    /** The path a {@code check} rule sends the client to; it fills in the variables. */
    static final String CHECK_PATH = "/machine/ssh/action/$SRC_NODE_ID/to/$DST_NODE_ID?local_user=$LOCAL_USER";
    static final String LOCALPART = "localpart:*@";
    /** The vendor's check period when a rule names none. */
    static final Duration DEFAULT_CHECK_PERIOD = Duration.ofHours(12);

    private record Compiled(SshRule rule, BitSet sources, List<Target> dsts, boolean selfDst, BitSet recorders) {
    }

    /** The port session recorders (tsrecorder) take recordings on. */
    static final int RECORDER_PORT = 80;
    /** Shown when an enforced recording cannot start, or fails while the session runs. */
    static final String RECORDING_REFUSED = "session recording is required but no recorder could be reached";
    static final String RECORDING_ENDED = "session recording failed; the session is closed";

    private final List<Compiled> rules = new ArrayList<>();
    private final NodeIndex index;
    private final String serverUrl;

    SshPolicies(Policy policy, AliasResolver resolver, NodeIndex index, String serverUrl) {
        this.index = index;
        this.serverUrl = serverUrl;
        // The vendor puts check rules first, so that an accept rule cannot shadow a check for the same users.
        List<SshRule> ordered = new ArrayList<>(policy.ssh().stream().filter(SshRule::check).toList());
        ordered.addAll(policy.ssh().stream().filter(rule -> !rule.check()).toList());
        for (SshRule rule : ordered) {
            List<Target> dsts = new ArrayList<>();
            boolean self = false;
            for (Alias dst : rule.dst()) {
                Target target = resolver.resolve(dst);
                self |= target.self();
                dsts.add(target);
            }
            BitSet recorders = new BitSet();
            for (Alias recorder : rule.recorders()) {
                recorders.or(resolver.resolve(recorder).nodes());
            }
            BitSet sources = AccessRule.satisfying(resolver.resolve(rule.src()).machines(index.size()),
                    policy.srcPostures(rule.srcPosture()), index);
            rules.add(new Compiled(rule, sources, dsts, self, recorders));
        }
    }

    SSHPolicy of(int node) {
        NodeIndex.Entry self = index.entry(node);
        List<SSHRule> out = new ArrayList<>();
        for (Compiled rule : rules) {
            BitSet principals = new BitSet();
            List<String> domains = rule.rule().users().stream().filter(SshPolicies::isLocalPart)
                    .map(u -> u.substring(LOCALPART.length())).toList();
            if (rule.dsts().stream().anyMatch(t -> t.nodes().get(node))) {
                principals.or(rule.sources());
            } else if ((rule.selfDst() || !domains.isEmpty()) && self.user() != null) {
                // autogroup:self; and the vendor also sends localpart rules to each source user's own machines
                principals.or(rule.sources());
                principals.and(index.ofUser(self.user().id()));
            } else if (!domains.isEmpty() && self.user() == null && rule.sources().get(node)) {
                principals.or(rule.sources());
                principals.and(index.tagged());
            }
            if (principals.isEmpty()) {
                continue;
            }
            SSHAction action = action(rule);
            List<String> acceptEnv = rule.rule().acceptEnv();
            Map<String, String> users = users(rule.rule().users());
            if (domains.isEmpty()) {
                out.add(new SSHRule(null, addresses(principals), users, action, acceptEnv));
                continue;
            }
            // With localpart: a rule per source user (and one for tagged sources), each followed by the user's
            // own login if the user's e-mail is in one of the domains.
            for (Map.Entry<PolicyUser, BitSet> group : byUser(principals).entrySet()) {
                out.add(new SSHRule(null, addresses(group.getValue()), users, action, acceptEnv));
                PolicyUser user = group.getKey();
                if (user != null && domains.stream().anyMatch(d -> d.equalsIgnoreCase(user.domain()))) {
                    String local = user.email().substring(0, user.email().lastIndexOf('@'));
                    out.add(new SSHRule(null, addresses(group.getValue()), Map.of(local, local), action, acceptEnv));
                }
            }
        }
        return new SSHPolicy(out);
    }

    /**
     * How long a successful check lets {@code src} log in to {@code dst} as {@code localUser} without another:
     * the period of the first rule (in the client's order) that lets it in, when that rule is a check; empty when
     * the first such rule accepts outright, or none does. {@link Duration#ZERO} asks every time.
     */
    Optional<Duration> checkPeriod(int src, int dst, String localUser) {
        PolicyUser srcUser = index.entry(src).user();
        PolicyUser dstUser = index.entry(dst).user();
        boolean sameOwner = srcUser != null && dstUser != null && srcUser.id() == dstUser.id();
        for (Compiled compiled : rules) {
            SshRule rule = compiled.rule();
            boolean localPart = rule.users().stream().anyMatch(SshPolicies::isLocalPart);
            boolean toDst = compiled.dsts().stream().anyMatch(t -> t.nodes().get(dst))
                    || ((compiled.selfDst() || localPart) && sameOwner);
            if (!compiled.sources().get(src) || !toDst || !letsIn(rule, srcUser, localUser)) {
                continue;
            }
            if (!rule.check()) {
                return Optional.empty();
            }
            return Optional.of(rule.checkPeriod() == null ? DEFAULT_CHECK_PERIOD : rule.checkPeriod());
        }
        return Optional.empty();
    }

    /** Whether the rule's users let the source log in as {@code localUser} (root only when listed). */
    private static boolean letsIn(SshRule rule, PolicyUser srcUser, String localUser) {
        for (String listed : rule.users()) {
            if (listed.equals(localUser)
                    || (listed.equals(AutoGroup.NONROOT.text()) && !localUser.equals("root"))) {
                return true;
            }
            if (isLocalPart(listed) && srcUser != null
                    && srcUser.domain().equalsIgnoreCase(listed.substring(LOCALPART.length()))
                    && srcUser.email().substring(0, srcUser.email().lastIndexOf('@')).equals(localUser)) {
                return true;
            }
        }
        return false;
    }

    /** Source machines by owner, in user order; tagged machines (owner null) last. */
    private Map<PolicyUser, BitSet> byUser(BitSet machines) {
        Map<Long, BitSet> owned = new java.util.TreeMap<>();
        BitSet tagged = new BitSet();
        for (int i = machines.nextSetBit(0); i >= 0; i = machines.nextSetBit(i + 1)) {
            PolicyUser user = index.entry(i).user();
            if (user == null) {
                tagged.set(i);
            } else {
                owned.computeIfAbsent(user.id(), id -> new BitSet()).set(i);
            }
        }
        Map<PolicyUser, BitSet> groups = new LinkedHashMap<>();
        owned.forEach((id, set) -> groups.put(index.user(id), set));
        if (!tagged.isEmpty()) {
            groups.put(null, tagged);
        }
        return groups;
    }

    /**
     * Local users: names map to themselves, {@code autogroup:nonroot} to any user of the same name but root, and
     * root is refused ("") unless listed. {@code localpart:} entries get rules of their own per source user.
     */
    private static Map<String, String> users(List<String> users) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String user : users) {
            if (user.equals(AutoGroup.NONROOT.text())) {
                map.put("*", "=");
            } else if (!isLocalPart(user)) {
                map.put(user, user);
            }
        }
        map.putIfAbsent("root", "");
        return map;
    }

    /** {@code localpart:*@domain} with a domain; other {@code localpart:} texts are plain user names. */
    static boolean isLocalPart(String user) {
        return user.startsWith(LOCALPART) && user.length() > LOCALPART.length();
    }

    /**
     * Accept, or check (the client asks control for the final action); with the rule's recorders, every address of
     * each on {@link #RECORDER_PORT} (the client tries them in order), and with {@code enforceRecorder} the session
     * refused or ended when recording fails (without it the client goes on unrecorded); either way the node reports
     * the failure to {@link SSHEventNotifyRequest#NOTIFY_PATH}.
     */
    private SSHAction action(Compiled compiled) {
        SshRule rule = compiled.rule();
        SSHAction base = rule.check() ? SSHAction.holdAndDelegate(serverUrl + CHECK_PATH) : SSHAction.acceptWithForwarding();
        if (rule.recorders().isEmpty()) {
            return base;
        }
        List<IpAddressPort> recorders = addresses(compiled.recorders()).stream()
                .map(p -> IpAddressPort.of(IpAddress.parse(p.nodeIp()), RECORDER_PORT))
                .toList();
        // Nodes report a recording that failed to this server (sshRecordingFailed), enforced or not.
        String notifyUrl = serverUrl.isEmpty() ? "" : serverUrl + SSHEventNotifyRequest.NOTIFY_PATH;
        SSHRecorderFailureAction onFailure = rule.enforceRecorder()
                ? new SSHRecorderFailureAction(RECORDING_REFUSED, RECORDING_ENDED, notifyUrl)
                : notifyUrl.isEmpty() ? null : new SSHRecorderFailureAction("", "", notifyUrl);
        return new SSHAction(base.message(), base.reject(), base.accept(), base.sessionDuration(),
                base.allowAgentForwarding(), base.holdAndDelegate(), base.allowLocalPortForwarding(),
                base.allowRemotePortForwarding(), recorders, onFailure);
    }

    /** Every address of the machines: IPv4 addresses first, each family sorted. */
    private List<SSHPrincipal> addresses(BitSet machines) {
        TreeSet<String> v4 = new TreeSet<>();
        TreeSet<String> v6 = new TreeSet<>();
        for (int i = machines.nextSetBit(0); i >= 0; i = machines.nextSetBit(i + 1)) {
            for (String address : index.entry(i).node().addresses()) {
                (address.contains(":") ? v6 : v4).add(address);
            }
        }
        List<SSHPrincipal> principals = new ArrayList<>();
        v4.forEach(address -> principals.add(SSHPrincipal.nodeIp(address)));
        v6.forEach(address -> principals.add(SSHPrincipal.nodeIp(address)));
        return principals;
    }
}
