// Public API of engine/encounter; owned by its area.
export {};
