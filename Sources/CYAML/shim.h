/* libyaml (libyaml-dev), whose event parser the config's composer reads. */
#include <yaml.h>
