package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Leave the field out only when it is null: Go's {@code omitzero} on slices, maps and pointers, {@code omitempty} on
 * pointers, and every field where the client tells "absent" (unchanged) from "empty" (cleared), such as
 * {@code MapResponse.PacketFilter}: an empty list is written as {@code []}.
 */
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
@JacksonAnnotationsInside
@JsonInclude(JsonInclude.Include.NON_NULL)
@interface OmitNull {
}
