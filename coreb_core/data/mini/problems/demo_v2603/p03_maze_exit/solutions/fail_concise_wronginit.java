import java.io.*;
import java.util.*;
public class Main{public static void main(String[] z)throws IOException{BufferedReader br=new BufferedReader(new InputStreamReader(System.in));
StringTokenizer st=new StringTokenizer(br.readLine());int h=Integer.parseInt(st.nextToken()),w=Integer.parseInt(st.nextToken());
char[][] g=new char[h][];int s=0,e=0;for(int i=0;i<h;i++){g[i]=br.readLine().trim().toCharArray();for(int j=0;j<w;j++){if(g[i][j]=='S')s=i*w+j;if(g[i][j]=='E')e=i*w+j;}}
int[] d=new int[h*w];boolean[] u=new boolean[h*w];u[s]=true;int[] q=new int[h*w];int hd=0,tl=0;q[tl++]=s;int[] dx={1,-1,0,0},dy={0,0,1,-1};
while(hd<tl){int v=q[hd++],x=v/w,y=v%w;for(int k=0;k<4;k++){int a=x+dx[k],b=y+dy[k];if(a<0||a>=h||b<0||b>=w||g[a][b]=='#'||u[a*w+b])continue;u[a*w+b]=true;d[a*w+b]=d[v]+1;q[tl++]=a*w+b;}}
System.out.println(d[e]);}}
