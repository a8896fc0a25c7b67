export const PASSWORD_HINT = '12 to 31 characters, with an uppercase letter, a lowercase letter and a number.'
