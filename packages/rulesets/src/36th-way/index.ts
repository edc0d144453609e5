// The 36th-way ruleset; public API.
export {};
