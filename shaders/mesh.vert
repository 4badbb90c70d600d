#version 330 core
// Shaded primitive: unit mesh placed by a model matrix; normals use the inverse-transpose part.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;

uniform mat4 u_model;
uniform mat4 u_view_proj;
uniform mat3 u_normal_matrix;

out vec3 v_world_pos;
out vec3 v_normal;

void main() {
  vec4 world = u_model * vec4(a_position, 1.0);
  v_world_pos = world.xyz;
  v_normal = u_normal_matrix * a_normal;
  gl_Position = u_view_proj * world;
}
