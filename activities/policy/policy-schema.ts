/**
 * The Cedar schema approval policies are written against (docs/operations.md#approval-policies):
 * the principal is the person who started the agent (a `User`, member of its `Role`s; `User::"anonymous"`
 * when nobody signed in), the action is `Action::"call"`, the resource the `Tool`, and the
 * context holds facts about the arguments. Policies are validated against it in strict mode when
 * the worker starts, so a typo in an attribute is refused there rather than ignored at a call.
 */
export const POLICY_SCHEMA = `
entity Role;
entity User in [Role];
entity Tool;
action call appliesTo {
  principal: [User],
  resource: [Tool],
  context: {
    // "read" or "write": this call's effect (http_fetch with GET reads, with POST writes).
    effect: String,
    // Whether the agent was started by a signed-in principal.
    authenticated: Bool,
    // Length of the arguments as JSON text, in characters.
    size: Long,
    // A "path" argument, as given (workspace-relative).
    path?: String,
    // A "url" argument, its host name (lower case) and its scheme ("https").
    url?: String,
    host?: String,
    scheme?: String,
    // A "method" argument in upper case, or the tool's default (GET for http_fetch).
    method?: String,
  }
};
`;

/** Who started an agent when nobody signed in. */
export const ANONYMOUS = 'anonymous';
