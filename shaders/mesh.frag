#version 330 core
// Phong-style shading: one key light from the camera side plus a soft fill and ambient term.
in vec3 v_world_pos;
in vec3 v_normal;

uniform vec4 u_color;
uniform vec3 u_eye;
uniform vec3 u_light_dir;  // direction the light travels towards, world space, normalized

out vec4 frag_color;

void main() {
  vec3 n = normalize(v_normal);
  vec3 to_eye = normalize(u_eye - v_world_pos);
  if (dot(n, to_eye) < 0.0) n = -n;  // light back faces of open meshes too
  vec3 to_light = -u_light_dir;
  float diffuse = max(dot(n, to_light), 0.0);
  float fill = 0.25 * max(dot(n, normalize(vec3(-to_light.x, -to_light.y, 0.5))), 0.0);
  vec3 half_vec = normalize(to_light + to_eye);
  float specular = pow(max(dot(n, half_vec), 0.0), 48.0) * 0.35;
  vec3 rgb = u_color.rgb * (0.22 + 0.7 * diffuse + fill) + vec3(specular);
  frag_color = vec4(rgb, u_color.a);
}
