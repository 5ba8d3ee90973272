/**
 * Reading a headscale server (its SQLite database, its {@code config.yaml}, its policy) and mapping it onto this
 * server's model and configuration for {@code svc import headscale}. Reads only; the import is written by
 * {@link io.meshcontrol.core.state.NetworkImport}. See docs/migrating-from-headscale.md.
 */
package io.meshcontrol.core.importing.headscale;
