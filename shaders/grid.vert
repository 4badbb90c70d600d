#version 330 core
// Ground plane: a unit quad placed by a model matrix; the fragment shader draws the grid.
layout(location = 0) in vec3 a_position;

uniform mat4 u_model;
uniform mat4 u_view_proj;

out vec3 v_world_pos;

void main() {
  vec4 world = u_model * vec4(a_position, 1.0);
  v_world_pos = world.xyz;
  gl_Position = u_view_proj * world;
}
