package io.meshcontrol.core.state;

import io.meshcontrol.core.Limits;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.crypto.Sha256;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.policy.CompiledPolicy;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.PolicyChecks;
import io.meshcontrol.core.policy.PolicyException;
import io.meshcontrol.core.policy.PolicyInventory;
import io.meshcontrol.core.policy.PolicyPreview;
import io.meshcontrol.core.policy.PolicyTestFailure;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.PolicyStore;
import java.io.IOException;
import io.meshcontrol.core.location.Locations;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The policy in force. It lives in the database (saved through {@link #set}) or, in file mode, in a file that is
 * read again by {@link #reload} (on change and on SIGHUP). Every new policy is validated first, its {@code tests}
 * included, so a rejected policy changes nothing. The ETag is a hash of the text, for conditional writes. A new
 * policy reaches the change feed once it is in force (a saved one: once its save committed), and then the route
 * approvals it allows are written.
 */
public final class Policies {

    private static final System.Logger LOG = System.getLogger(Policies.class.getName());

    public static final String WRITE_SCOPE = "policy_file";
    public static final String READ_SCOPE = "policy_file:read";
    /** The actor of a change that came from the policy file. */
    public static final String FILE_ACTOR = "policy-file";

    /** What the vendor's clients send as If-Match to write only over the default policy. */
    public static final String DEFAULT_ETAG = "\"ts-default\"";

    /** The policy with its ETag (quoted, as HTTP writes it). */
    public record Current(Policy policy, String etag) {
    }

    private final Jdbi jdbi;
    private final Writer writer;
    private final PolicyStore store;
    private final Snapshots feed;
    private final Clock clock;
    private final AuditStore audit = new AuditStore();
    private final Supplier<PolicyInventory> inventory;
    private RouteApprovals approvals;
    private volatile Current current;
    /** Members granted by access requests, group to logins; added to the saved policy's groups. */
    private volatile Map<String, List<String>> granted = Map.of();
    /** The saved policy with the granted members: what the rules consult. */
    private volatile Policy effective;
    private volatile Path file;
    /** The file's text when last read, valid or not: a folder event that changed nothing in it is ignored. */
    private String lastFileText;

    private volatile Locations locations = Locations.none();
    /**
     * Guards putting a policy or memberships in force (the last lock taken: only the feed's is taken inside it), so a
     * policy another instance saved and memberships granted meanwhile do not overwrite each other.
     */
    private final Object inForce = new Object();

    Policies(Jdbi jdbi, Writer writer, PolicyStore store, Snapshots feed, Clock clock,
            Supplier<PolicyInventory> inventory) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.store = store;
        this.feed = feed;
        this.clock = clock;
        this.inventory = inventory;
        String text = jdbi.withHandle(store::read).orElse(null);
        this.current = text == null ? new Current(Policy.EMPTY, etag(Policy.EMPTY.text())) : stored(text);
        this.effective = current.policy();
    }

    /** Set once by {@link Network}: route approvals are made from the policy, so they are built after it. */
    void approveRoutesWith(RouteApprovals routeApprovals) {
        this.approvals = routeApprovals;
    }

    /**
     * A saved policy the parser refuses (saved by an older version with looser checks) must not open the network:
     * it is replaced by one that allows nothing until an administrator saves a valid one.
     */
    private static Current stored(String text) {
        try {
            return new Current(Policy.parse(text), etag(text));
        } catch (PolicyException e) {
            LOG.log(Level.ERROR, "the saved policy is not valid (" + e.getMessage()
                    + "); allowing no traffic until a valid policy is saved");
            return new Current(Policy.parse("{\"acls\": []}"), etag(text));
        }
    }

    /**
     * The policy in force, for the rules that consult it: the saved one, its groups widened by the memberships
     * access requests grant ({@link #grantMembers}).
     */
    public Policy policy() {
        return effective;
    }

    /**
     * Puts the memberships granted by access requests in force (all of them: the previous ones are replaced), and
     * tells the feed, so maps follow. {@link AccessRequests} calls this after each change of them commits.
     *
     * @param members group to the logins granted membership
     * @return whether the policy in force changed
     */
    boolean grantMembers(Map<String, List<String>> members) {
        synchronized (inForce) {
            if (members.equals(granted)) {
                return false;
            }
            granted = Map.copyOf(members);
            Policy next = current.policy().withGroupMembers(granted);
            if (next == effective) {
                return false;
            }
            effective = next;
            feed.policyChanged(next);
            return true;
        }
    }

    /**
     * Puts the saved policy in force again, read through {@code handle}: another instance saved it. In file mode each
     * instance reads its own file, and the saved one is not in force. Not under this object's lock, which is taken
     * before the writer lock ({@link #set}) while this runs under it.
     */
    void followSaved(Handle handle) {
        if (file != null) {
            return;
        }
        String text = store.read(handle).orElse(null);
        Current next = text == null ? new Current(Policy.EMPTY, etag(Policy.EMPTY.text())) : stored(text);
        if (!next.etag().equals(current.etag())) {
            putInForce(next);
        }
    }

    public Current get(Caller caller) {
        caller.require(READ_SCOPE);
        return current;
    }

    /** The ETag of the policy in force (quoted), for diagnostics. */
    public String etag() {
        return current.etag();
    }

    /** The policy file in file mode, or null when the policy lives in the database. */
    public Path file() {
        return file;
    }

    /**
     * Places machines with {@code locations} from now on ({@code policy.geoip_database}); set once at start, before
     * map streams read the policy.
     */
    public void useLocations(Locations locations) {
        this.locations = locations;
    }

    /** The location database the policy is compiled with ({@code ip:country} posture conditions). */
    public Locations locations() {
        return locations;
    }

    /**
     * Reads the location database file again (SIGHUP). When a new database is in force, every machine's location is
     * looked up again: map streams hear of it as of a policy change, and peers get the filters it makes.
     *
     * @return whether a new database is in force
     */
    public boolean reloadLocations() {
        if (!locations.reload()) {
            return false;
        }
        feed.policyChanged(effective);
        return true;
    }

    /**
     * Validates {@code text} as {@link #set} would, {@code tests} and {@code sshTests} included, without saving.
     *
     * @return the parsed policy
     * @throws MeshException (invalid) with the vendor's error text
     */
    public Policy check(Caller caller, String text) {
        caller.require(READ_SCOPE);
        return validate(text);
    }

    /**
     * The policy's failing tests, for callers that report them case by case (the vendor's validate call); a
     * policy that does not parse or names domains no user has is refused as {@link #check} refuses it.
     */
    public List<PolicyTestFailure> failedTests(Caller caller, String text) {
        caller.require(READ_SCOPE);
        Policy policy;
        try {
            policy = Policy.parse(text);
            PolicyChecks.checkDomains(policy, inventory.get());
        } catch (PolicyException e) {
            throw e.refused();
        }
        return PolicyChecks.failedTests(policy, inventory.get());
    }

    /**
     * The vendor's ACL preview of {@code text} (a policy not saved) against the network's users and machines.
     *
     * @throws MeshException (invalid) when the policy does not parse or the preview request is wrong
     */
    public PolicyPreview preview(Caller caller, String text, String type, String previewFor) {
        caller.require(READ_SCOPE);
        try {
            return PolicyChecks.preview(Policy.parse(text), inventory.get(), type, previewFor);
        } catch (PolicyException e) {
            throw e.refused();
        }
    }

    /**
     * {@code text} (a policy not saved) compiled against the network's users and machines as it would be put in force
     * (with the memberships access requests grant), for previews of what it lets machines reach. Its SSH rules name
     * no server URL: a preview reads packet filters, not SSH policies.
     *
     * @throws MeshException (invalid) with the vendor's error text when the policy does not parse
     */
    public CompiledPolicy compile(Caller caller, String text) {
        caller.require(READ_SCOPE);
        return compiled(text, inventory.get());
    }

    /**
     * As {@link #compile(Caller, String)}, with machine {@code nodeId} supposed to be in {@code country} (and
     * {@code city}) for posture conditions, wherever the location database places it: what the policy preview
     * answers when asked about a location.
     */
    public CompiledPolicy compile(Caller caller, String text, long nodeId, String country, String city) {
        caller.require(READ_SCOPE);
        PolicyInventory all = inventory.get();
        PolicyInventory placed = new PolicyInventory(all.users(), all.nodes().stream()
                .map(node -> node.id() != nodeId ? node
                        : node.withFacts(node.facts().withLocation(country.toUpperCase(java.util.Locale.ROOT), city)))
                .toList());
        return compiled(text, placed);
    }

    /** {@code text} compiled over {@code machines} with the memberships access requests grant, for previews. */
    private CompiledPolicy compiled(String text, PolicyInventory machines) {
        Policy policy;
        try {
            policy = Policy.parse(text);
        } catch (PolicyException e) {
            throw e.refused();
        }
        return CompiledPolicy.compile(policy.withGroupMembers(granted), machines, "");
    }

    /** Whether the policy in force is still the default one (nothing saved, or the default saved again). */
    public boolean isDefault() {
        return current.policy().text().equals(Policy.EMPTY.text());
    }

    /**
     * Saves {@code text} after validating it.
     *
     * @param ifMatch the ETag the caller last read, {@code *} for any, {@code "ts-default"} for "only while the
     *     policy is the default one" (the vendor's clients send it on first write), or null for an unconditional write
     */
    public synchronized Current set(Caller caller, String text, String ifMatch) {
        caller.require(WRITE_SCOPE);
        if (file != null) {
            throw MeshException.conflict("the policy is read from " + file + " (policy.mode: file); edit that file "
                    + "instead: the server reloads it when it changes and on SIGHUP");
        }
        requireMatch(ifMatch, current.policy().text(), current.etag());
        Current next = new Current(validate(text), etag(text));
        // Under this lock the policy in force is the last one saved; the writer orders the save with other changes.
        writer.write(caller, WRITE_SCOPE, (h, now) -> {
            // Again against the saved policy: another instance may have saved one this instance has not followed yet.
            String saved = store.read(h).orElse(Policy.EMPTY.text());
            requireMatch(ifMatch, saved, etag(saved));
            store.write(h, text, now, caller.actor());
            audit.append(h, caller.audited(now, "policy.update", "policy", AuditDetails.of()
                    .change("etag", current.etag(), next.etag()).map()));
            feed.logChange(h, ChangeLog.Kind.POLICY, "");
            h.afterCommit(() -> putInForce(next));
            feed.publishOnCommit(h, new MeshEvent.PolicyUpdated(now, caller.actor()));
        });
        approvals.approveAllowedRoutes();
        return next;
    }

    private static void requireMatch(String ifMatch, String savedText, String savedEtag) {
        boolean isDefault = savedText.equals(Policy.EMPTY.text());
        if (ifMatch != null && !ifMatch.trim().equals("*") && !ifMatch.trim().equals(savedEtag)
                && !(ifMatch.trim().equals(DEFAULT_ETAG) && isDefault)) {
            throw new MeshException(MeshException.Reason.PRECONDITION_FAILED,
                    "the policy changed since it was read (ETag " + savedEtag + "); read it again and retry");
        }
    }

    /**
     * Saves a policy imported from another control server, in the import's own transaction ({@link NetworkImport}):
     * checked as {@link #set} checks a policy, except against the inventory, which that transaction is still writing.
     */
    void saveImported(Handle h, Caller caller, String text, Instant now) {
        Limits.bytes("policy", text, Limits.POLICY_BYTES);
        Current next;
        try {
            next = new Current(Policy.parse(text), etag(text));
        } catch (PolicyException e) {
            throw MeshException.invalid("the imported policy is not valid here: " + e.getMessage());
        }
        store.write(h, text, now, caller.actor());
        audit.append(h, caller.audited(now, "policy.update", "policy", AuditDetails.of()
                .change("etag", current.etag(), next.etag()).map()));
        feed.logChange(h, ChangeLog.Kind.POLICY, "");
        h.afterCommit(() -> putInForce(next));
        feed.publishOnCommit(h, new MeshEvent.PolicyUpdated(now, caller.actor()));
    }

    /**
     * Switches to file mode: the policy is read from {@code path} from now on and can no longer be saved through
     * the API.
     *
     * @throws MeshException (invalid) naming the file when it cannot be read or is not a valid policy: a server
     *     must not start with a policy other than the one its operator wrote
     */
    public synchronized void useFile(Path path) {
        String text = read(path);
        Policy policy;
        try {
            policy = validate(text);
        } catch (MeshException e) {
            throw MeshException.invalid("policy file " + path + ": " + e.getMessage());
        }
        file = path;
        lastFileText = text;
        apply(policy, text);
    }

    /**
     * Reads the policy file again (file mode; SIGHUP). A file that cannot be read or is not valid is reported in the
     * log and leaves the policy in force as it is.
     *
     * @return whether a new policy is in force
     */
    public boolean reload() {
        return reload(true);
    }

    /** As {@link #reload()}, but quietly does nothing when the file reads as it did last time (watcher events). */
    public boolean reloadIfChanged() {
        return reload(false);
    }

    private synchronized boolean reload(boolean force) {
        Path path = file;
        if (path == null) {
            return false;
        }
        String text;
        Policy policy;
        try {
            text = read(path);
            if (text.equals(current.policy().text()) || (!force && text.equals(lastFileText))) {
                lastFileText = text;
                return false;
            }
            lastFileText = text;
            policy = validate(text);
        } catch (MeshException e) {
            LOG.log(Level.ERROR, "policy file " + path + " not applied, the previous policy stays in force: "
                    + e.getMessage());
            return false;
        }
        apply(policy, text);
        LOG.log(Level.INFO, "policy reloaded from " + path);
        return true;
    }

    private void apply(Policy policy, String text) {
        if (text.equals(current.policy().text())) {
            return;
        }
        Current next = new Current(policy, etag(text));
        Instant now = clock.instant();
        // Whoever edited the file is unknown: the entry names the file as the actor and the file as the target.
        jdbi.useTransaction(h -> audit.append(h, new AuditEntry(0, now, FILE_ACTOR, "", "policy.reload",
                file.toString(), AuditDetails.of().change("etag", current.etag(), next.etag()).map())));
        putInForce(next);
        feed.publish(new MeshEvent.PolicyUpdated(now, FILE_ACTOR));
        approvals.approveAllowedRoutes();
    }

    /** Before the feed hears of it: its readers read the policy in force. */
    private void putInForce(Current next) {
        synchronized (inForce) {
            current = next;
            effective = next.policy().withGroupMembers(granted);
            feed.policyChanged(effective);
        }
    }

    /** Parses, then runs the checks that need the network's users and machines ({@code tests} among them). */
    private Policy validate(String text) {
        Limits.bytes("policy", text, Limits.POLICY_BYTES);
        try {
            Policy policy = Policy.parse(text);
            PolicyChecks.check(policy, inventory.get());
            return policy;
        } catch (PolicyException e) {
            throw e.refused();
        }
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw MeshException.invalid("cannot read policy file " + path + ": " + e.getMessage());
        }
    }

    static String etag(String text) {
        return "\"" + Sha256.hex(text, 16) + "\"";
    }
}
