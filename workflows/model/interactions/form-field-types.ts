/**
 * The types a form field (`ask.form`) can have, as a plain list: the `ask_user` schema offers
 * them to the model and the interaction schema describes stored fields with them.
 */

/** The types of a form field. */
export const FORM_FIELD_TYPES = ['input', 'textarea', 'number', 'select', 'multiselect', 'boolean', 'date'] as const;
