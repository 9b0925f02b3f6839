/** A Linear issue key (ENG-123): its team key and number. */
export const LINEAR_KEY = /^([A-Za-z][A-Za-z0-9]{0,19})-([1-9][0-9]{0,9})$/
