/**
 * What one map session remembers between messages, kept small because there is one session per streaming node:
 * the peers and users it sent ({@link io.meshcontrol.core.netmap.session.IdSet}, a bit per id), the routes it sent
 * its routers with ({@link io.meshcontrol.core.netmap.session.SentRoutes}), and what it is told changed
 * ({@link io.meshcontrol.core.netmap.session.ChangeSet}, one per batch). Needs no map inputs: map streaming
 * ({@code io.meshcontrol.core.netmap}) builds on it, never the other way.
 */
package io.meshcontrol.core.netmap.session;
