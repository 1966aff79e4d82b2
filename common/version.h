#ifndef LATLAB_VERSION_H
#define LATLAB_VERSION_H
#ifndef LATLAB_VERSION
#define LATLAB_VERSION "0.1.0"
#endif
#endif
