#version 330 core
// Anti-aliased grid lines in the plane's xy coordinates, fading with distance from the eye.
in vec3 v_world_pos;

uniform vec4 u_color;
uniform vec4 u_line_color;
uniform float u_spacing;
uniform vec3 u_eye;

out vec4 frag_color;

void main() {
  vec2 coord = v_world_pos.xy / u_spacing;
  vec2 width = fwidth(coord);
  vec2 dist = abs(fract(coord - 0.5) - 0.5) / max(width, vec2(1e-6));
  float line = 1.0 - min(min(dist.x, dist.y), 1.0);
  float fade = clamp(1.0 - length(v_world_pos - u_eye) / 60.0, 0.0, 1.0);
  vec4 color = mix(u_color, u_line_color, line * fade);
  frag_color = color;
}
