package io.meshcontrol.core.state;

import io.meshcontrol.core.event.EventBus;
import io.meshcontrol.core.store.ApiKeyStore;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.Database;
import io.meshcontrol.core.store.TailnetStore;
import io.meshcontrol.core.store.UserStore;
import java.time.Clock;
import java.time.Duration;

/** The network's state services over one database, wired once; the composition root holds one of these. */
public final class Network {

    private final Database database;
    private final EventBus events;
    private final String tailnetId;
    private final Users users;
    private final ApiKeys apiKeys;
    private final AuditStore audit;

    /** @param clock read through a millisecond tick: the database keeps milliseconds, so memory does too */
    public Network(Database database, Clock clock) {
        clock = Clock.tick(clock, Duration.ofMillis(1));
        this.database = database;
        this.events = new EventBus();
        this.audit = new AuditStore();
        UserStore userStore = new UserStore();
        this.tailnetId = new TailnetStore(database.jdbi()).ensureTailnetId(clock.instant());
        this.users = new Users(database.jdbi(), userStore, events, clock);
        this.apiKeys = new ApiKeys(database.jdbi(), new ApiKeyStore(), userStore, audit, clock);
    }

    public Database database() {
        return database;
    }

    public EventBus events() {
        return events;
    }

    public String tailnetId() {
        return tailnetId;
    }

    public Users users() {
        return users;
    }

    public ApiKeys apiKeys() {
        return apiKeys;
    }

    public AuditStore audit() {
        return audit;
    }
}
