/**
 * What every map carries besides nodes: the {@link io.meshcontrol.core.netmap.context.MapContext} (DNS, the DERP map,
 * services, apps, the dial plan, the latest client release) and the pieces it is made of. {@code core.state} holds
 * the context in force ({@code MapContextState}) and map streaming in {@code core.netmap} reads it; this package uses
 * neither, so that neither depends on the other through it.
 */
package io.meshcontrol.core.netmap.context;
