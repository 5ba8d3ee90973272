package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Leave the field out when it is null, empty, zero or false, as Go's {@code omitempty} does (and {@code omitzero} on
 * strings, numbers and booleans). A zero key and the zero time count as empty, as {@code omitzero} treats them
 * ({@link GoEmpty} has the full list).
 *
 * <p>Not for {@code opt.Bool} fields (held as {@link Boolean}): there {@code false} is a value and must be written; use
 * {@link OmitNull}.
 */
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
@JacksonAnnotationsInside
@JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = GoEmpty.class)
@interface OmitEmpty {
}
