package io.meshcontrol.core.importing.headscale;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.key.DiscoPublicKey;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.PreAuthKey;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.PolicyException;
import io.meshcontrol.core.state.NetworkImport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What {@code svc import headscale} would import, read from headscale's database, configuration and policy file:
 * the rows for {@link NetworkImport}, the generated {@code config.yaml}, headscale's Noise key, and every problem
 * found, each either a blocker (nothing is imported while there is one) or a warning (imported, with a loss named).
 */
public final class HeadscaleImport {

    /** A problem found on the way; a blocker stops the import. */
    public record Problem(boolean blocker, String text) {
        static Problem blocker(String text) {
            return new Problem(true, text);
        }

        static Problem warning(String text) {
            return new Problem(false, text);
        }
    }

    /**
     * The import as planned.
     *
     * @param contents what is written into the network
     * @param summary one line per imported item, for the dry run
     * @param notCarried one line per thing left behind, with why and what to do instead
     * @param configYaml this server's configuration made from headscale's, for review
     * @param noiseKey headscale's Noise key, when found: the server must use it so that running clients, which keep
     *     the key they fetched when they started, stay connected
     */
    public record Plan(NetworkImport.Contents contents, List<Problem> problems, List<String> summary,
            List<String> notCarried, String configYaml, Optional<MachinePrivateKey> noiseKey) {

        public boolean blocked() {
            return problems.stream().anyMatch(Problem::blocker);
        }
    }

    /** The pre-auth key expiry used for a headscale key without one: it never expired there. */
    static final Instant NO_EXPIRY = Instant.parse("9999-12-31T23:59:59Z");
    private static final Pattern USER_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@+-]{0,62}");
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final List<Problem> problems = new ArrayList<>();
    private final List<String> summary = new ArrayList<>();
    private final List<String> notCarried = new ArrayList<>();

    private HeadscaleImport() {
    }

    /**
     * Plans the import.
     *
     * @param database headscale's SQLite file (a PostgreSQL URL is refused: not supported yet)
     * @param configFile headscale's {@code config.yaml}, or null
     * @param policyFile a policy file that takes the place of the one headscale used, or null
     * @throws MeshException (invalid) when the database cannot be read at all
     */
    public static Plan plan(String database, Path configFile, Path policyFile) {
        HeadscaleData data = HeadscaleDatabase.read(database);
        HeadscaleConfig config = configFile == null ? null : HeadscaleConfig.read(configFile);
        String policy = policyFile == null ? null : readFile(policyFile, "policy file");
        return new HeadscaleImport().plan(data, config, configFile, policy);
    }

    Plan plan(HeadscaleData data, HeadscaleConfig config, Path configFile, String policyOverride) {
        String issuer = config == null ? null : config.text("oidc.issuer").orElse(null);
        List<NetworkImport.Identity> identities = new ArrayList<>();
        List<User> users = users(data, issuer, identities);
        Set<Long> userIds = new HashSet<>();
        users.forEach(user -> userIds.add(user.id()));
        Map<Long, PreAuthKey> keys = keys(data, userIds);
        List<Node> nodes = nodes(data, userIds, keys);
        String policy = policy(data, config, configFile, policyOverride);
        for (HeadscaleData.ApiKey key : data.apiKeys()) {
            notCarried.add("API key hskey-api-" + key.prefix() + "-***: headscale's API is not svc's, so its scripts "
                    + "need changing anyway; make new keys with `svc apikeys create`");
        }
        String yaml = "";
        Optional<MachinePrivateKey> noiseKey = Optional.empty();
        if (config == null) {
            problems.add(Problem.warning("no --config: headscale's settings (server_url, DNS, DERP, prefixes, OIDC) "
                    + "are not mapped and its Noise key is not imported; running clients then stay offline until "
                    + "tailscaled restarts"));
        } else {
            HeadscaleConfig.Translation translation = config.translate();
            yaml = HeadscaleConfig.yaml(translation, List.of(
                    "svc configuration made by `svc import headscale` from " + configFile,
                    "Review it, then use it (or merge it into yours) before `svc serve`.",
                    "database.sqlite.path and noise.private_key_path stay as in your svc configuration."));
            translation.notCarried().forEach(n -> notCarried.add("config " + n.key() + ": " + n.reason()));
            noiseKey = noiseKey(config, configFile);
        }
        summary.add(0, users.size() + " user(s), " + nodes.size() + " node(s), " + keys.size()
                + " pre-auth key(s), policy: " + (policy == null ? "none (svc's default)" : "yes"));
        return new Plan(new NetworkImport.Contents(users, identities, nodes, List.copyOf(keys.values()), policy),
                List.copyOf(problems), List.copyOf(summary), List.copyOf(notCarried), yaml, noiseKey);
    }

    private List<User> users(HeadscaleData data, String issuer, List<NetworkImport.Identity> identities) {
        List<User> users = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Set<String> emails = new HashSet<>();
        for (HeadscaleData.User source : data.users()) {
            String name = freeName(source, names);
            String email = source.email();
            if (!email.isEmpty() && (!EMAIL.matcher(email).matches() || !emails.add(email.toLowerCase()))) {
                problems.add(Problem.warning("user " + name + ": e-mail \"" + email + "\" is not carried (invalid, or "
                        + "another user has it)"));
                email = "";
            }
            Instant created = source.createdAt() == null ? Instant.EPOCH : source.createdAt();
            users.add(new User(source.id(), name, source.displayName(), email, Role.MEMBER, created, true));
            summary.add("user " + source.id() + " " + name + (email.isEmpty() ? "" : " <" + email + ">"));
            if (source.providerIdentifier() != null && !source.providerIdentifier().isEmpty()) {
                identity(source, name, issuer).ifPresent(identities::add);
            }
        }
        return users;
    }

    /** The user's name, made valid and unique here when it is not (with a warning). */
    private String freeName(HeadscaleData.User source, Set<String> taken) {
        String name = source.name();
        if (!USER_NAME.matcher(name).matches()) {
            String base = name.isEmpty() ? source.email() : name;
            name = base.replaceAll("[^A-Za-z0-9._@+-]", "-").replaceAll("^[^A-Za-z0-9]+", "");
            if (name.isEmpty()) {
                name = "user" + source.id();
            }
            name = name.length() > 63 ? name.substring(0, 63) : name;
        }
        String candidate = name;
        for (int n = 2; taken.contains(candidate.toLowerCase()); n++) {
            candidate = name + "-" + n;
        }
        if (!candidate.equals(source.name())) {
            problems.add(Problem.warning("user " + source.id() + " \"" + source.name() + "\" is named " + candidate
                    + " here (names must be unique and use letters, digits or . _ - + @); policies that name "
                    + source.name() + "@ need the new name"));
        }
        taken.add(candidate.toLowerCase());
        return candidate;
    }

    /**
     * headscale keeps an OIDC user's identity as the issuer (without a trailing slash) and the subject joined by a
     * slash; with the issuer known from the configuration, the subject is what follows it.
     */
    private Optional<NetworkImport.Identity> identity(HeadscaleData.User source, String name, String issuer) {
        String identifier = source.providerIdentifier();
        if (issuer == null) {
            problems.add(Problem.warning("user " + name + ": OIDC identity " + identifier + " not linked (no --config "
                    + "naming oidc.issuer); the user is matched by e-mail address at the first login"));
            return Optional.empty();
        }
        String prefix = issuer.replaceAll("/+$", "") + "/";
        if (!identifier.startsWith(prefix) || identifier.length() == prefix.length()) {
            problems.add(Problem.warning("user " + name + ": OIDC identity " + identifier + " is not from oidc.issuer "
                    + issuer + "; the user is matched by e-mail address at the first login"));
            return Optional.empty();
        }
        return Optional.of(new NetworkImport.Identity(issuer, identifier.substring(prefix.length()), source.id()));
    }

    private Map<Long, PreAuthKey> keys(HeadscaleData data, Set<Long> userIds) {
        Map<Long, PreAuthKey> keys = new java.util.LinkedHashMap<>();
        for (HeadscaleData.PreAuthKey source : data.preAuthKeys()) {
            if (source.prefix() == null || source.hash() == null) {
                // Its text is the secret itself: not printed.
                notCarried.add("pre-auth key " + source.id() + ": an old plain-text key, whose form svc does "
                        + "not accept; make a new one with `svc preauthkeys create`");
                continue;
            }
            Long userId = source.userId() != null && userIds.contains(source.userId()) ? source.userId() : null;
            List<String> tags = jsonList(source.tags(), "pre-auth key " + source.id() + " tags");
            if (userId == null && tags.isEmpty()) {
                notCarried.add("pre-auth key hskey-auth-" + source.prefix() + "-***: it has neither a user nor tags");
                continue;
            }
            Instant created = source.createdAt() == null ? Instant.EPOCH : source.createdAt();
            Instant expires = source.expiration() == null ? NO_EXPIRY : source.expiration();
            keys.put(source.id(), new PreAuthKey(source.id(), source.prefix(), source.hash(), userId, tags,
                    source.reusable(), source.ephemeral(), true, "imported from headscale", created, expires, null,
                    source.used() ? 1 : 0, null));
            summary.add("pre-auth key " + source.id() + " hskey-auth-" + source.prefix() + "-***"
                    + (source.reusable() ? " reusable" : "") + (source.ephemeral() ? " ephemeral" : "")
                    + (tags.isEmpty() ? "" : " " + String.join(",", tags)) + ", expires " + expires);
        }
        return keys;
    }

    private List<Node> nodes(HeadscaleData data, Set<Long> userIds, Map<Long, PreAuthKey> keys) {
        List<Node> nodes = new ArrayList<>();
        Map<String, Long> seen = new HashMap<>();
        for (HeadscaleData.Node source : data.nodes()) {
            String label = "node " + source.id() + " " + source.givenName();
            try {
                Node node = node(source, userIds, keys, label);
                for (String unique : new String[] {"machine key " + node.machineKey().toText(),
                        "node key " + node.nodeKey().toText(), "name " + node.givenName().toLowerCase(),
                        "address " + node.ipv4(), "address " + node.ipv6()}) {
                    if (unique.endsWith(" null")) {
                        continue;
                    }
                    Long other = seen.putIfAbsent(unique, node.id());
                    if (other != null) {
                        throw MeshException.invalid("it has the same " + unique + " as node " + other);
                    }
                }
                nodes.add(node);
                summary.add(label + (node.isTagged() ? " " + String.join(",", node.tags()) : " user " + node.userId())
                        + ": " + node.ipv4() + " " + node.ipv6()
                        + (node.approvedRoutes().isEmpty() ? "" : ", approved routes " + node.approvedRoutes())
                        + (node.advertisedRoutes().isEmpty() ? "" : ", announced " + node.advertisedRoutes()));
            } catch (MeshException | IllegalArgumentException e) {
                problems.add(Problem.blocker(label + " cannot be imported: " + e.getMessage()));
            }
        }
        return nodes;
    }

    private Node node(HeadscaleData.Node source, Set<Long> userIds, Map<Long, PreAuthKey> keys, String label) {
        List<String> tags = jsonList(source.tags(), label + " tags");
        Long userId = source.userId();
        if (tags.isEmpty() && (userId == null || !userIds.contains(userId))) {
            throw MeshException.invalid("it has neither tags nor an owner among the users");
        }
        if (!tags.isEmpty()) {
            userId = null; // a tagged node belongs to its tags, here as in headscale
        }
        String ipv4 = address(source.ipv4(), true);
        String ipv6 = address(source.ipv6(), false);
        if (ipv4 == null && ipv6 == null) {
            throw MeshException.invalid("it has no address");
        }
        PreAuthKey key = source.authKeyId() == null ? null : keys.get(source.authKeyId());
        Instant created = source.createdAt() == null ? Instant.EPOCH : source.createdAt();
        String hostinfo = source.hostinfo().isEmpty() ? "{}" : source.hostinfo();
        Node.RegisterMethod method = "authkey".equals(source.registerMethod()) ? Node.RegisterMethod.AUTH_KEY
                : Node.RegisterMethod.INTERACTIVE;
        return new Node(source.id(), Long.toString(source.id()), MachinePublicKey.parse(source.machineKey()),
                NodePublicKey.parse(source.nodeKey()),
                source.discoKey().isEmpty() ? null : DiscoPublicKey.parse(source.discoKey()), source.hostname(),
                source.givenName(), userId, tags, ipv4, ipv6, hostinfo, jsonList(source.endpoints(), label + " endpoints"),
                true, key != null && key.ephemeral(), key == null ? null : key.id(), method, created, source.lastSeen(),
                source.expiry(), routableIps(hostinfo, label), prefixes(jsonList(source.approvedRoutes(), label)),
                false, null, source.expiry() == null);
    }

    private static String address(String text, boolean v4) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        IpAddress address = IpAddress.parse(text);
        if (address.isIpv4() != v4) {
            throw MeshException.invalid("address " + text + " is not IPv" + (v4 ? "4" : "6"));
        }
        return address.toString();
    }

    private List<IpPrefix> routableIps(String hostinfo, String label) {
        try {
            JsonNode routes = JSON.readTree(hostinfo).path("RoutableIPs");
            List<String> texts = new ArrayList<>();
            routes.forEach(route -> texts.add(route.asString()));
            return prefixes(texts);
        } catch (JacksonException e) {
            problems.add(Problem.warning(label + ": its Hostinfo is not JSON; announced routes are learned again when "
                    + "it connects"));
            return List.of();
        }
    }

    private static List<IpPrefix> prefixes(List<String> texts) {
        return texts.stream().map(IpPrefix::parse).toList();
    }

    private static List<String> jsonList(String json, String what) {
        if (json == null || json.isBlank() || json.equals("null")) {
            return List.of();
        }
        try {
            JsonNode node = JSON.readTree(json);
            if (!node.isArray()) {
                throw MeshException.invalid(what + " is not a JSON list");
            }
            List<String> values = new ArrayList<>();
            node.forEach(value -> values.add(value.asString()));
            return values;
        } catch (JacksonException e) {
            throw MeshException.invalid(what + " is not JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * The policy: {@code --policy}, else the one headscale used (its database in database mode, else its policy.path),
     * checked with this server's parser.
     */
    private String policy(HeadscaleData data, HeadscaleConfig config, Path configFile, String override) {
        String text = override;
        if (text == null) {
            boolean fileMode = config != null && !"database".equals(config.text("policy.mode").orElse("file"));
            Optional<String> path = config == null ? Optional.empty() : config.text("policy.path");
            if (fileMode && path.isPresent()) {
                Path file = configFile.resolveSibling(path.get());
                if (Files.isReadable(file)) {
                    text = readFile(file, "policy file");
                } else {
                    problems.add(Problem.blocker("headscale's policy file " + file + " cannot be read: pass the policy "
                            + "with --policy"));
                    return null;
                }
            } else {
                text = data.policy();
            }
        }
        if (text == null) {
            problems.add(Problem.warning("no policy found (neither --policy, nor headscale's database or policy.path): "
                    + "svc's default policy, which allows all traffic, applies"));
            return null;
        }
        try {
            Policy.parse(text);
        } catch (PolicyException e) {
            problems.add(Problem.blocker("the policy is not valid here: " + e.getMessage()
                    + " (fix it and pass it with --policy)"));
        }
        return text;
    }

    private Optional<MachinePrivateKey> noiseKey(HeadscaleConfig config, Path configFile) {
        Optional<String> path = config.text("noise.private_key_path");
        if (path.isEmpty()) {
            problems.add(Problem.blocker("headscale's configuration names no noise.private_key_path: without "
                    + "headscale's Noise key, running clients cannot reach svc"));
            return Optional.empty();
        }
        Path file = configFile.resolveSibling(path.get());
        try {
            return Optional.of(MachinePrivateKey.load(file));
        } catch (IOException e) {
            problems.add(Problem.blocker("headscale's Noise key " + file + " cannot be read (" + e.getMessage()
                    + "); clients pin it, so it must be imported"));
            return Optional.empty();
        }
    }

    private static String readFile(Path file, String what) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw MeshException.invalid("cannot read the " + what + " " + file + ": " + e.getMessage());
        }
    }
}
