// RenderCore: filled in by the render-engine work (issue 3).
