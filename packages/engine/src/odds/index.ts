// Public API of engine/odds; owned by its area.
export {};
